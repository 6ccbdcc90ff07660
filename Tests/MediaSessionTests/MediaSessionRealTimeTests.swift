import Codecs
import Foundation
import MediaSession
import Synchronization
import Testing

extension LiveCalls {
    /// The figures that tell whether a machine keeps up with its calls: late audio ticks and
    /// the jitter buffer's playout statistics, read while the call runs.
    @Suite struct MediaSessionRealTimeTests {
        @Test func anAudioThreadThatStallsCountsLateTicks() throws {
            let stalling = StallingEndpoint(stallOnRead: 30, milliseconds: 80)
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000) { _ in
            } adjustCallee: { configuration in
                configuration.audio = .endpoint(stalling)
            }
            defer { call.stop() }
            #expect(waitUntil(seconds: 5) { stalling.reads > 40 })
            // The tick after the 80 ms stall starts at least 80 ms after the one before.
            #expect(call.callee.statistics.lateAudioTicks >= 1)
        }

        @Test func playoutStatisticsAreReadableWhileTheCallRuns() throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000)
            #expect(waitUntil(seconds: 5) { call.callee.playoutStatistics.packetsReceived >= 25 })
            let running = call.callee.playoutStatistics
            #expect(running.playedSamples > 0)
            #expect(running.packetsReceived <= call.callee.statistics.rtpPacketsReceived)
            call.stop()
            let final = call.callee.playoutStatistics
            #expect(final.playedSamples >= running.playedSamples)
            #expect(call.callee.playoutStatistics == final, "frozen once the call stopped")
        }
    }
}

/// Silence in, nothing kept out, and one read that blocks: the audio thread stalls once, as
/// it would when the machine gave its CPU to something else.
private final class StallingEndpoint: AudioEndpoint, Sendable {
    private let stallOnRead: Int
    private let stallSeconds: Double
    private let readCount = Atomic<Int>(0)

    /// Blocks for `milliseconds` in the read numbered `stallOnRead` (from 1).
    init(stallOnRead: Int, milliseconds: Int) {
        self.stallOnRead = stallOnRead
        stallSeconds = Double(milliseconds) / 1000
    }

    /// Reads so far.
    var reads: Int { readCount.load(ordering: .relaxed) }

    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {}

    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        pcm.update(repeating: 0)
        if readCount.add(1, ordering: .relaxed).newValue == stallOnRead {
            Thread.sleep(forTimeInterval: stallSeconds)
        }
    }

    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {}

    func close() {}
}
