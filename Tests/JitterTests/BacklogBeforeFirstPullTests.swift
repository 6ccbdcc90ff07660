import Codecs
import Testing

@testable import Jitter

/// Datagrams that queued before the first pull (a SIP caller starts its session when the
/// answer arrives, and the callee's media may already be on the way) waited for the pull, not
/// for the network: the buffer plays all of them, learns nothing from their wait, and leaves the
/// backlog in the first pause.
@Suite struct BacklogBeforeFirstPullTests {
    /// The stream of ``LeavingTheStartTests/payloads(count:voicedPackets:pausePackets:noisy:)``
    /// (silent pauses of 200 ms), its packets arriving every 20 ms from `backlog` ms before the
    /// first pull: the delays (current and target) at each pull.
    static func delays(backlog: Double) throws -> [(current: Double, target: Double)] {
        let payloads = try LeavingTheStartTests.payloads(count: 300, voicedPackets: 30, pausePackets: 10, noisy: false)
        var buffer = JitterBuffer(decoder: G711Decoder(law: .muLaw), configuration: JitterBufferConfiguration())
        var delays: [(current: Double, target: Double)] = []
        SteadyPCMUStream.play(
            payloads, through: &buffer, pulls: 500, arrival: { Double($0) * 20 - backlog },
            observe: { _, _, _, buffer in
                delays.append((buffer.statistics.currentDelayMilliseconds, buffer.statistics.targetDelayMilliseconds))
            })
        #expect(buffer.statistics.latePackets == 0)
        #expect(buffer.statistics.concealedSamples == 0, "the backlog is played, not lost")
        return delays
    }

    @Test(arguments: [100.0, 300.0])
    func aBacklogSetsNoTargetAndLeavesInTheFirstPause(backlog: Double) throws {
        let delays = try Self.delays(backlog: backlog)
        // The first pull plays the oldest packet: the backlog is delay for now.
        #expect(delays[0].current >= backlog)
        // Packets arrive on the pulls' phase with no jitter: nothing calls for more than 30 ms.
        let highestTarget = delays.dropFirst(5).map(\.target).max() ?? 0
        #expect(highestTarget <= 30, "target reached \(highestTarget) ms")
        // The first pause starts 900 ms into the stream (pull 90 + the backlog).
        let settled = delays.indices.first { $0 > 0 && delays[$0...].allSatisfy { $0.current < 50 } }
        #expect(settled.map { $0 <= 150 + Int(backlog / 10) } ?? false, "the delay came down at pull \(settled.map(String.init) ?? "never")")
    }
}
