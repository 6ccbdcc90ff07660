internal import CALSA

/// A microphone (or any ALSA capture PCM): 16-bit interleaved samples, read a period at a time.
///
/// Not `Sendable`: open it on the thread that reads it (the audio thread), which then owns it.
/// Overruns and suspends are recovered from and counted in ``statistics``; the stream goes on.
public final class AudioCapture {
    private let stream: PCMStream

    /// Opens `source` for capture with `configuration`.
    /// - Throws: ``AudioDeviceError`` naming the device and the ALSA error.
    public init(source: AudioDeviceSource = .named("default"), configuration: AudioStreamConfiguration = .init()) throws(AudioDeviceError) {
        stream = try PCMStream(source: source, configuration: configuration, direction: .capture)
    }

    /// Frames in one period as granted by ALSA (80 for 10 ms at 8 kHz, when ALSA grants it).
    public var periodFrames: Int { stream.periodFrames }
    /// The device buffer in frames.
    public var bufferFrames: Int { stream.bufferFrames }
    /// Frames read, xruns and suspends so far.
    public var statistics: AudioStreamStatistics { stream.statistics }

    /// Fills `pcm` entirely with captured interleaved samples, blocking until they are there.
    /// `pcm.count` must be a whole number of frames.
    public func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(AudioDeviceError) {
        try stream.transfer(UnsafeMutableRawPointer(pcm.baseAddress), sampleCount: pcm.count, operation: "snd_pcm_readi") {
            snd_pcm_readi($0, $1, $2)
        }
    }
}
