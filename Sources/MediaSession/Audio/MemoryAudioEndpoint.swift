import Codecs
import Locking

/// An audio endpoint in memory, for tests and file-to-file calls: capture plays a sample
/// array (then silence), playback is recorded into a preallocated array. The session paces it.
///
/// `Sendable`: the samples are only touched under a lock, by the session's audio thread while
/// the call runs and by the caller before and after.
public final class MemoryAudioEndpoint: AudioEndpoint, @unchecked Sendable {
    private struct State {
        var source: [Int16]
        var position = 0
        var recorded: [Int16]
    }

    private let state: PThreadLock<State>
    /// The most samples recorded (fixed when made, so that an endpoint recording nothing plays
    /// without taking the lock).
    private let recordingCapacity: Int

    /// An endpoint capturing `source` (interleaved samples in the capture format the session
    /// asks for) and recording at most `recordingCapacitySamples` played samples.
    public init(source: [Int16], recordingCapacitySamples: Int) {
        var recorded: [Int16] = []
        recorded.reserveCapacity(recordingCapacitySamples)
        recordingCapacity = recordingCapacitySamples
        state = PThreadLock(State(source: source, recorded: recorded))
    }

    /// The samples played so far.
    public var recorded: [Int16] {
        state.withLock { $0.recorded }
    }

    /// How many source samples have been captured so far.
    public var capturedSampleCount: Int {
        state.withLock { $0.position }
    }

    /// Nothing to open: the formats are the caller's business.
    public func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {}

    /// Copies the next source samples into `pcm`, padding with silence after the end.
    public func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        state.withLock { state in
            let available = max(0, min(pcm.count, state.source.count - state.position))
            let position = state.position
            state.source.withUnsafeBufferPointer { source in
                _ = UnsafeMutableBufferPointer(rebasing: pcm[..<available]).update(
                    fromContentsOf: UnsafeBufferPointer(rebasing: source[position..<(position + available)]))
            }
            UnsafeMutableBufferPointer(rebasing: pcm[available...]).update(repeating: 0)
            state.position += available
        }
    }

    /// Appends `pcm` to the recording while there is room (the rest is dropped).
    public func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        guard recordingCapacity > 0 else { return }
        state.withLock { state in
            let room = recordingCapacity - state.recorded.count
            // A full recording is not touched: appending nothing still checks the array's
            // uniqueness and takes its slow path.
            guard room > 0 else { return }
            state.recorded.append(contentsOf: pcm.prefix(room))
        }
    }

    /// Nothing to release.
    public func close() {}
}
