import AudioDevice
import Codecs

/// ALSA capture and playback devices, opened on the audio thread at the formats the session
/// asks for (ALSA's `plug` layer resamples when the hardware lacks the rate). Capture blocks
/// until a period is there; the session's timer paces devices that do not (ALSA's `null`).
final class DeviceAudioEndpoint: AudioEndpoint {
    private let captureSource: AudioDeviceSource
    private let playbackSource: AudioDeviceSource
    private var capture: AudioCapture?
    private var playback: AudioPlayback?

    init(capture: AudioDeviceSource, playback: AudioDeviceSource) {
        captureSource = capture
        playbackSource = playback
    }

    func open(capture captureFormat: AudioFormat, playback playbackFormat: AudioFormat) throws(MediaSessionError) {
        do {
            capture = try AudioCapture(source: captureSource, configuration: Self.stream(captureFormat))
            playback = try AudioPlayback(source: playbackSource, configuration: Self.stream(playbackFormat))
        } catch {
            close()
            throw .audioDevice(error)
        }
    }

    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        guard let capture else { throw .invalidState("audio device '\(captureSource)': read before open") }
        do { try capture.read(into: pcm) } catch { throw .audioDevice(error) }
    }

    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        guard let playback else { throw .invalidState("audio device '\(playbackSource)': write before open") }
        do { try playback.write(pcm) } catch { throw .audioDevice(error) }
    }

    /// The playback device's queue (ALSA's delay) and underruns; nil before open.
    func playbackPosition() -> AudioPlaybackPosition? {
        guard let playback else { return nil }
        return AudioPlaybackPosition(queuedFrames: playback.queuedFrames(), underruns: playback.statistics.xruns)
    }

    /// The capture device's overruns and suspends, and the frames they lost (estimated from
    /// the monotonic clock, ``AudioCapture/read(into:)``); nothing before open.
    func captureLoss() -> AudioCaptureLoss {
        guard let statistics = capture?.statistics else { return AudioCaptureLoss() }
        return AudioCaptureLoss(overruns: statistics.xruns + statistics.suspends, frames: statistics.framesLost)
    }

    func close() {
        capture = nil
        playback = nil
    }

    private static func stream(_ format: AudioFormat) -> AudioStreamConfiguration {
        // 8 periods: room for the pacer's largest headroom and a period on top (a buffer's size
        // costs no delay; only what the pacer keeps queued does).
        AudioStreamConfiguration(sampleRate: format.sampleRate, channels: format.channels, periodMilliseconds: 10, bufferPeriods: 8)
    }
}
