internal import CALSA
import Glibc

/// A microphone (or any ALSA capture PCM): 16-bit interleaved samples, read a period at a time.
///
/// Not `Sendable`: open it on the thread that reads it (the audio thread), which then owns it.
/// Overruns and suspends are recovered from and counted in ``statistics``, with the frames
/// they lost; the stream goes on.
public final class AudioCapture {
    private let stream: PCMStream
    private var lossMeter: CaptureLossMeter

    /// Opens `source` for capture with `configuration`.
    /// - Throws: ``AudioDeviceError`` naming the device and the ALSA error.
    public init(source: AudioDeviceSource = .named("default"), configuration: AudioStreamConfiguration = .init()) throws(AudioDeviceError) {
        stream = try PCMStream(source: source, configuration: configuration, direction: .capture)
        lossMeter = CaptureLossMeter(sampleRate: configuration.sampleRate)
    }

    /// Frames in one period as granted by ALSA (80 for 10 ms at 8 kHz, when ALSA grants it).
    public var periodFrames: Int { stream.periodFrames }
    /// The device buffer in frames.
    public var bufferFrames: Int { stream.bufferFrames }
    /// Frames read, xruns and suspends so far, and the frames they lost.
    public var statistics: AudioStreamStatistics { stream.statistics }

    /// Fills `pcm` entirely with captured interleaved samples, blocking until they are there.
    /// `pcm.count` must be a whole number of frames.
    ///
    /// When the stream overran (the caller did not read for longer than the device buffer
    /// holds) or was suspended, the read recovers and counts the frames lost in
    /// ``AudioStreamStatistics/framesLost``: the time since the read before (on the monotonic
    /// clock, read as each read returns) times the rate, plus what was buffered then, less what
    /// this read delivered and what is buffered now. That is the media time the next frames
    /// start after the last ones, whatever the device discarded.
    public func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(AudioDeviceError) {
        let recoveriesBefore = stream.statistics.xruns + stream.statistics.suspends
        try stream.transfer(UnsafeMutableRawPointer(pcm.baseAddress), sampleCount: pcm.count, operation: "snd_pcm_readi") {
            snd_pcm_readi($0, $1, $2)
        }
        let buffered = max(0, snd_pcm_avail_update(stream.handle.pcm))
        stream.statistics.framesLost += lossMeter.recordRead(
            monotonicNanoseconds: Self.monotonicNanoseconds(), frames: pcm.count / stream.configuration.channels, bufferedFrames: buffered,
            recovered: stream.statistics.xruns + stream.statistics.suspends != recoveriesBefore
        )
    }

    private static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
