import Codecs
import Foundation
import MediaSession

/// The phone's "microphone" and "speaker": it plays a WAV file's samples (converted to the
/// negotiated codec's format when the session opens it, then silence) and records what it
/// is given to play.
final class PhoneAudioEndpoint: AudioEndpoint, @unchecked Sendable {
    private let lock = NSLock()
    private let input: [Int16]
    private let inputFormat: AudioFormat
    private let recordingSeconds: Double
    private var source: [Int16] = []
    private var position = 0
    private var recording: [Int16] = []
    private var playbackFormat: AudioFormat?

    /// Plays `input` (in `format`; empty for silence) and keeps up to `recordingSeconds` of what is heard.
    init(input: [Int16], format: AudioFormat, recordingSeconds: Double) {
        self.input = input
        inputFormat = format
        self.recordingSeconds = recordingSeconds
    }

    /// What was played so far and its format (nil before the session opened the endpoint).
    var heard: (samples: [Int16], format: AudioFormat)? {
        lock.withLock { playbackFormat.map { (recording, $0) } }
    }

    /// Converts the input to the capture format and reserves the recording.
    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {
        let converted: [Int16]
        do {
            converted = input.isEmpty ? [] : try Transcoder.convert(input, from: inputFormat, to: capture)
        } catch {
            throw .invalidState("the phone input cannot be converted to \(capture): \(error)")
        }
        lock.withLock {
            source = converted
            position = 0
            playbackFormat = playback
            recording.reserveCapacity(Int(recordingSeconds * Double(playback.sampleRate * playback.channels)))
        }
    }

    /// The next 10 ms of the input, or silence after its end.
    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        lock.withLock {
            for index in pcm.indices {
                pcm[index] = position < source.count ? source[position] : 0
                position += 1
            }
        }
    }

    /// Records 10 ms of what was heard, up to the reserved length.
    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        lock.withLock {
            guard recording.count + pcm.count <= recording.capacity else { return }
            recording.append(contentsOf: pcm)
        }
    }

    /// Nothing to release.
    func close() {}
}
