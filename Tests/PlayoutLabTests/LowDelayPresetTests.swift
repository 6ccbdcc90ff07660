import Jitter
import NetworkModel
import PlayoutLab
import Testing

/// The low-delay settings against the defaults on the same heavy-tailed network.
@Suite struct LowDelayPresetTests {
    @Test func playsEarlierForSomeMoreLoss() {
        let packets = simulated(NetworkScenario.heavyJitter.generate().trace)
        func score(_ configuration: JitterBufferConfiguration) -> PlayoutScore {
            let records = PlayoutSimulator(configuration: configuration).play(packets)
            return PlayoutScore(trace: packets, records: records, clockRate: 8000, samplesPerFrame: 160)
        }
        let listening = score(JitterBufferConfiguration()), lowDelay = score(.lowDelay)
        #expect(lowDelay.p95DelayMilliseconds < listening.p95DelayMilliseconds - 100, "\(lowDelay.p95DelayMilliseconds) ms")
        #expect(lowDelay.effectiveLossPercent > listening.effectiveLossPercent)
        #expect(lowDelay.networkLossPercent == listening.networkLossPercent, "the same network")
    }
}
