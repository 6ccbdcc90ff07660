import Jitter
import NetworkModel
import PlayoutLab
import Testing

/// The conversational default against the listening preset on the same heavy-tailed network.
@Suite struct ConversationalDefaultTests {
    @Test func playsEarlierForSomeMoreLoss() {
        let packets = simulated(NetworkScenario.heavyJitter.generate().trace)
        func score(_ configuration: JitterBufferConfiguration) -> PlayoutScore {
            let records = PlayoutSimulator(configuration: configuration).play(packets)
            return PlayoutScore(trace: packets, records: records, clockRate: 8000, samplesPerFrame: 160)
        }
        let listening = score(.listening), conversational = score(JitterBufferConfiguration())
        #expect(conversational.p95DelayMilliseconds < listening.p95DelayMilliseconds - 100, "\(conversational.p95DelayMilliseconds) ms")
        #expect(conversational.effectiveLossPercent > listening.effectiveLossPercent)
        #expect(conversational.networkLossPercent == listening.networkLossPercent, "the same network")
    }
}
