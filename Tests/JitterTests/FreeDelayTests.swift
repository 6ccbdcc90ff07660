import Testing

@testable import Jitter

/// A buffer whose conversation gets more delay for free keeps it instead of shrinking: the
/// band stretching steers by in the middle of the speech shrinks only once the mouth-to-ear
/// delay reaches 110 ms (or the usual 20 ms above the target, whichever comes later).
@Suite struct FreeDelayTests {
    @Test func theBandShrinksOnlyAboveTheFreeMouthToEarDelay() {
        // 60 ms outside, a 20 ms target: 110 − 60 − 20 = 30 ms above the target.
        let cheap = DelayBand.adaptive.keepingFreeDelay(outsideMilliseconds: 60, targetMilliseconds: 20)
        #expect(cheap.shrinkAbove == 30)
        #expect(cheap.growBelow == DelayBand.adaptive.growBelow && cheap.settle == DelayBand.adaptive.settle)
        #expect(cheap.contains(error: 29) && !cheap.contains(error: 31))
        // 150 ms outside: the mouth-to-ear delay is past the free region already.
        let dear = DelayBand.adaptive.keepingFreeDelay(outsideMilliseconds: 150, targetMilliseconds: 20)
        #expect(dear.shrinkAbove == DelayBand.adaptive.shrinkAbove)
    }

    /// The drift of a 1000 ppm fast sender, 60 s (arrivals every 20/1.001 ms, 40 ms transit).
    static func driftFilled(_ configuration: JitterBufferConfiguration) -> Replay {
        let tick = 20 / (1 + 1000 * 1e-6)
        var script = Script.stream(count: 3000)
        for index in script.packets.indices { script.packets[index].arrivalMilliseconds = Double(index) * tick + 40 }
        return replay(script, pulls: 5990, configuration: configuration)
    }

    /// A fixed buffer, the baseline, keeps its own band on the same cheap path: at 10 ms it
    /// shrinks at 20 ms above its delay, as a fixed buffer with a skew estimate does (with the
    /// free band it would keep 40 ms above it).
    @Test func aFixedBufferKeepsItsOwnBand() {
        var configuration = JitterBufferConfiguration()
        configuration.delayPolicy = .fixed(milliseconds: 10)
        let result = Self.driftFilled(configuration)
        let highest = (1000..<result.delays.count).map { result.delays[$0].current }.max() ?? 0
        #expect(highest < 10 + 20 + 5, "a fixed 10 ms buffer reached \(highest) ms")
    }

    /// The sender's clock 1000 ppm fast for 60 s fills the buffer by 60 ms: with a cheap path
    /// (60 ms outside) the buffer shrinks fewer times and later than with a dear one (150 ms),
    /// and never lets the mouth-to-ear delay much past 110 ms plus the drift until a pause.
    @Test func aDriftFilledBufferOnACheapPathShrinksSeldom() {
        func replayDrift(outsideMilliseconds: Double) -> Replay {
            var configuration = JitterBufferConfiguration()
            configuration.conversationalBaseDelayMilliseconds = outsideMilliseconds
            return Self.driftFilled(configuration)
        }
        /// The pulls from 10 s on that begin a run of shrinking.
        func shrinks(_ result: Replay) -> [Int] {
            (1000..<result.decisions.count).filter {
                result.decisions[$0].kind == .accelerate && result.decisions[$0 - 1].kind != .accelerate
            }
        }
        let cheap = replayDrift(outsideMilliseconds: 60)
        let dear = replayDrift(outsideMilliseconds: 150)
        for result in [cheap, dear] {
            #expect(result.statistics.concealmentEvents == 0)
            #expect(result.statistics.latePackets == 0)
        }
        #expect(shrinks(cheap).count < shrinks(dear).count, "cheap \(shrinks(cheap)), dear \(shrinks(dear))")
        #expect((shrinks(cheap).first ?? .max) > (shrinks(dear).first ?? .max))
        let highest = (1000..<cheap.delays.count).map { cheap.delays[$0].current }.max() ?? 0
        #expect(highest > 110 - 60 - 10, "the free delay is kept: at most \(highest) ms")
        #expect(highest < 110 - 60 + 5, "and not much more: \(highest) ms")
    }
}
