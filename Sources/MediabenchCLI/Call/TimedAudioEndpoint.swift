import Codecs
import Glibc
import MediaSession
import Synchronization

/// An in-memory audio endpoint that also notes when its first capture period was read and its
/// first playback period written (CLOCK_MONOTONIC), so that sample positions become times:
/// the session reads and writes one 10 ms period per tick of its steady clock.
final class TimedAudioEndpoint: AudioEndpoint, Sendable {
    private let memory: MemoryAudioEndpoint
    private let expectedFormat: AudioFormat
    private let firstRead = Atomic<Int64>(0)
    private let firstWrite = Atomic<Int64>(0)

    /// Captures `source` (mono, in `format`), then silence; records up to `recordingCapacitySamples`.
    init(source: [Int16], format: AudioFormat, recordingCapacitySamples: Int) {
        memory = MemoryAudioEndpoint(source: source, recordingCapacitySamples: recordingCapacitySamples)
        expectedFormat = format
    }

    /// What was played so far.
    var recorded: [Int16] { memory.recorded }

    /// When the first capture period was read, in monotonic nanoseconds (0 before).
    var firstReadNanoseconds: Int64 { firstRead.load(ordering: .acquiring) }

    /// When the first playback period was written, in monotonic nanoseconds (0 before).
    var firstWriteNanoseconds: Int64 { firstWrite.load(ordering: .acquiring) }

    /// Refuses formats other than the one the audio was prepared in.
    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {
        guard capture == expectedFormat, playback == expectedFormat else {
            throw .audioFormat(expected: expectedFormat, capture: capture, playback: playback)
        }
    }

    /// Reads the next period of the source.
    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        note(firstRead)
        try memory.read(into: pcm)
    }

    /// Records a played period.
    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        note(firstWrite)
        try memory.write(pcm)
    }

    /// Nothing to release.
    func close() {}

    private func note(_ first: borrowing Atomic<Int64>) {
        guard first.load(ordering: .relaxed) == 0 else { return }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        first.store(Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec), ordering: .releasing)
    }
}
