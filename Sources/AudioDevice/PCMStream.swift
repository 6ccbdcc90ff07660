internal import CALSA

/// Counters a capture or playback stream keeps.
public struct AudioStreamStatistics: Sendable, Equatable {
    /// Frames (samples per channel) read or written so far.
    public var frames: Int = 0
    /// Overruns (capture) or underruns (playback) recovered from.
    public var xruns: Int = 0
    /// Suspends (for example a system sleep) recovered from.
    public var suspends: Int = 0
    /// Capture only: frames the device captured that were never read, lost when it recovered
    /// from an overrun or a suspend (ALSA discards its buffer then). Estimated from the
    /// monotonic clock: see ``AudioCapture/read(into:)``.
    public var framesLost: Int = 0
}

/// The part capture and playback share: an open, configured PCM and the transfer loop that
/// moves whole buffers, recovering from xruns and suspends without giving up on the stream.
final class PCMStream {
    let handle: PCMHandle
    let configuration: AudioStreamConfiguration
    /// The period ALSA granted, in frames.
    let periodFrames: Int
    /// The device buffer ALSA granted, in frames.
    let bufferFrames: Int
    var statistics = AudioStreamStatistics()

    init(source: AudioDeviceSource, configuration: AudioStreamConfiguration, direction: PCMDirection) throws(AudioDeviceError) {
        let handle = try PCMHandle(source: source, direction: direction)
        let sizes = try handle.configure(configuration, direction: direction)
        self.handle = handle
        self.configuration = configuration
        periodFrames = sizes.period
        bufferFrames = sizes.buffer
    }

    /// Moves `sampleCount` interleaved samples at `samples` through `call` (`snd_pcm_readi` or
    /// `snd_pcm_writei`), looping over short transfers and recovering from xruns and suspends.
    func transfer(
        _ samples: UnsafeMutableRawPointer?,
        sampleCount: Int,
        operation: String,
        call: (OpaquePointer, UnsafeMutableRawPointer, snd_pcm_uframes_t) -> snd_pcm_sframes_t
    ) throws(AudioDeviceError) {
        let channels = configuration.channels
        guard sampleCount % channels == 0 else {
            throw AudioDeviceError(
                device: handle.deviceName, operation: operation,
                message: "\(sampleCount) samples is not a whole number of \(channels)-channel frames"
            )
        }
        guard let samples, sampleCount > 0 else { return }
        let frameBytes = channels * MemoryLayout<Int16>.size
        var done = 0
        let total = sampleCount / channels
        while done < total {
            let result = call(handle.pcm, samples + done * frameBytes, snd_pcm_uframes_t(total - done))
            if result >= 0 {
                done += result
                statistics.frames += result
                continue
            }
            switch try handle.recover(from: result, operation: operation) {
            case .xrun: statistics.xruns += 1
            case .suspend: statistics.suspends += 1
            case .interrupted: break
            }
        }
    }
}
