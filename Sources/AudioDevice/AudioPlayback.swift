internal import CALSA

/// A speaker (or any ALSA playback PCM): 16-bit interleaved samples, written a period at a time.
///
/// Not `Sendable`: open it on the thread that writes it (the audio thread), which then owns it.
/// Underruns and suspends are recovered from and counted in ``statistics``; the stream goes on.
public final class AudioPlayback {
    private let stream: PCMStream

    /// Opens `source` for playback with `configuration`.
    /// - Throws: ``AudioDeviceError`` naming the device and the ALSA error.
    public init(source: AudioDeviceSource = .named("default"), configuration: AudioStreamConfiguration = .init()) throws(AudioDeviceError) {
        stream = try PCMStream(source: source, configuration: configuration, direction: .playback)
    }

    /// Frames in one period as granted by ALSA.
    public var periodFrames: Int { stream.periodFrames }
    /// The device buffer in frames.
    public var bufferFrames: Int { stream.bufferFrames }
    /// Frames written, xruns and suspends so far.
    public var statistics: AudioStreamStatistics { stream.statistics }

    /// Queues all of `pcm` (interleaved samples, a whole number of frames), blocking while the
    /// device buffer is full.
    public func write(_ pcm: UnsafeBufferPointer<Int16>) throws(AudioDeviceError) {
        try stream.transfer(UnsafeMutableRawPointer(mutating: pcm.baseAddress), sampleCount: pcm.count, operation: "snd_pcm_writei") {
            snd_pcm_writei($0, $1, $2)
        }
    }

    /// Frames written and not yet played (ALSA's delay): the headroom left before an underrun.
    /// Zero when the stream is stopped or has underrun; a device that plays instantly (ALSA's
    /// `null`, `file`) always says zero.
    public func queuedFrames() -> Int {
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(stream.handle.pcm, &delay) >= 0 else { return 0 }
        return max(0, delay)
    }

    /// Blocks until everything queued has been played.
    public func drain() throws(AudioDeviceError) {
        try stream.handle.check(snd_pcm_drain(stream.handle.pcm), "snd_pcm_drain")
    }
}
