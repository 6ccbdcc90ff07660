import QualityMetrics
import Testing

/// The RFC 3611 Appendix A.2 state machine on hand-made sequences. Each expected counter was
/// worked out by hand, step by step, from the Appendix's per-packet code; the comments show
/// the steps.
@Suite("RFC 3611 burst/gap model")
struct BurstGapCounterTests {
    /// `R` received, `L` lost, `D` discarded; a number before a letter repeats it.
    static func fates(_ pattern: String) -> [PacketFate] {
        var result: [PacketFate] = []
        var count = 0
        for character in pattern where character != " " {
            if let digit = character.wholeNumberValue {
                count = count * 10 + digit
                continue
            }
            let fate: PacketFate = character == "R" ? .received : character == "L" ? .lost : .discarded
            result += Array(repeating: fate, count: Swift.max(count, 1))
            count = 0
        }
        return result
    }

    static func counter(_ pattern: String, minimumGap: UInt8 = 16) -> BurstGapCounter {
        var counter = BurstGapCounter(minimumGap: minimumGap)
        for fate in fates(pattern) { counter.record(fate) }
        return counter
    }

    @Test func isolatedLossesInLongGaps() {
        // 20R: pkt = 20. L: pkt >= 16 and lost == 0 -> c13 = 1, lost = 1, c11 = 20.
        // 20R: pkt = 20. L: pkt >= 16 and lost == 1 -> c14 = 1, c11 = 40. 20R: pkt = 20.
        let counter = Self.counter("20R L 20R L 20R")
        #expect([counter.c11, counter.c13, counter.c14, counter.c22, counter.c23, counter.c33] == [40, 1, 1, 0, 0, 0])
        #expect(counter.lostPackets == 2 && counter.receivedPackets == 60)
        // c31 = 1, c32 = 0, ctotal = 43; p32 = 0, p23 = 1 -> burst density 1;
        // gap density = 1/41; gap = 42 * 20 / 1 = 840 ms; burst = 43 * 20 - 840 = 20 ms.
        let metrics = counter.metrics(packetDurationMilliseconds: 20)
        #expect(metrics.burstDensity == 1)
        #expect(abs(metrics.gapDensity - 1.0 / 41) < 1e-12)
        #expect(metrics.gapDurationMilliseconds == 840)
        #expect(metrics.burstDurationMilliseconds == 20)
    }

    @Test func aBurstWithConsecutiveLosses() {
        // 20R; L: c13 = 1, lost = 1, c11 = 20. R: pkt = 1. L: pkt < 16 -> lost = 2, c23 = 1,
        // c22 += 0. L: pkt = 0 -> lost = 3, c33 = 1. 20R; L: lost != 1 -> c13 = 2, c11 = 40.
        let counter = Self.counter("20R L R 2L 20R L 20R")
        #expect([counter.c11, counter.c13, counter.c14, counter.c22, counter.c23, counter.c33] == [40, 2, 0, 0, 1, 1])
        // c31 = 2, c32 = 1, ctotal = 47; p32 = 1/4, p23 = 1 - 0/1 = 1 -> density 0.8;
        // gap = 42 * 20 / 2 = 420 ms; burst = 47 * 20 / 2 - 420 = 50 ms.
        let metrics = counter.metrics(packetDurationMilliseconds: 20)
        #expect(abs(metrics.burstDensity - 0.8) < 1e-12)
        #expect(metrics.gapDensity == 0)
        #expect(metrics.gapDurationMilliseconds == 420)
        #expect(metrics.burstDurationMilliseconds == 50)
    }

    @Test func receivedPacketsInsideABurst() {
        // 20R; L: c13 = 1, c11 = 20. 3R; L: pkt = 3 < 16 -> lost = 2, c23 = 1, c22 = 2.
        // 20R; L: lost = 2 -> c13 = 2, c11 = 40.
        let counter = Self.counter("20R L 3R L 20R L")
        #expect([counter.c11, counter.c13, counter.c14, counter.c22, counter.c23, counter.c33] == [40, 2, 0, 2, 1, 0])
        // c31 = 2, c32 = 1, ctotal = 48; p32 = 1/3, p23 = 1 - 2/3 -> density 0.5;
        // gap = 42 * 20 / 2 = 420 ms; burst = 48 * 20 / 2 - 420 = 60 ms.
        let metrics = counter.metrics(packetDurationMilliseconds: 20)
        #expect(abs(metrics.burstDensity - 0.5) < 1e-12)
        #expect(abs(metrics.gapDurationMilliseconds - 420) < 1e-9)
        #expect(abs(metrics.burstDurationMilliseconds - 60) < 1e-9)
    }

    @Test func smallGminAndLeadingLosses() {
        // Gmin 2. L: pkt = 0 < 2 -> lost = 1, c33 = 1. L: lost = 2, c33 = 2. 2R: pkt = 2.
        // L: pkt >= 2, lost == 2 -> c13 = 1, lost = 1, c11 = 2. R: pkt = 1.
        // L: pkt < 2 -> lost = 2, c23 = 1, c22 += 0.
        let counter = Self.counter("2L 2R L R L", minimumGap: 2)
        #expect([counter.c11, counter.c13, counter.c14, counter.c22, counter.c23, counter.c33] == [2, 1, 0, 0, 1, 2])
        #expect(counter.lostPackets == 4 && counter.expectedPackets == 7)
    }

    @Test func discardsCountAsLossesInTheModelButSeparatelyInTheRates() {
        let lost = Self.counter("20R L R 2L 20R L 20R")
        let mixed = Self.counter("20R D R L D 20R L 20R")
        #expect(
            [mixed.c11, mixed.c13, mixed.c14, mixed.c22, mixed.c23, mixed.c33]
                == [lost.c11, lost.c13, lost.c14, lost.c22, lost.c23, lost.c33])
        #expect(mixed.lostPackets == 2 && mixed.discardedPackets == 2)
        #expect(abs(mixed.lossFraction - 2.0 / 65) < 1e-12)
        #expect(abs(mixed.discardFraction - 2.0 / 65) < 1e-12)
        #expect(abs(mixed.effectiveLossPercent - 400.0 / 65) < 1e-12)
    }

    @Test func noLossIsOneLongGap() {
        let counter = Self.counter("100R")
        let metrics = counter.metrics(packetDurationMilliseconds: 20)
        #expect(
            metrics
                == BurstGapMetrics(
                    burstDensity: 0, gapDensity: 0, burstDurationMilliseconds: 0, gapDurationMilliseconds: 2000))
        #expect(counter.lossFraction == 0)
        #expect(BurstGapCounter().metrics(packetDurationMilliseconds: 20).gapDurationMilliseconds == 0)
    }
}
