import PlayoutLab
import Testing

@testable import Jitter

/// The delays a 10 ms pull clock tells apart: a delay between two lattice points plays no
/// packet the lower one does not, so the band settles just above the lower one.
@Suite struct PullLatticeTests {
    let lattice = PullLattice(periodMilliseconds: 10, bucketMilliseconds: 2)

    @Test func thePhaseIsThePacketsPlaceBetweenTwoPulls() {
        // A pull at 1000 ms, the fastest packet 40.5 ms (arrival less media time), a packet
        // starting at 940 ms: 1000 − 40.5 − 940 = 19.5, 9.5 modulo 10.
        #expect(lattice.phase(pullMilliseconds: 1000, referenceMilliseconds: 40.5, packetMilliseconds: 940) == 9.5)
        // Negative offsets wrap into 0..<10.
        #expect(lattice.phase(pullMilliseconds: 0, referenceMilliseconds: 3, packetMilliseconds: 0) == 7)
    }

    @Test func theBandSettlesJustAboveTheLatticePointUnderItsSettlingPoint() {
        // Packets arriving 9.5 ms before their pull: the target is the bucket's upper edge,
        // 10 ms; settling 3 ms above it would be 13 ms, 3.5 ms above the lattice point 9.5,
        // which plays the same packets. Settling 1 ms above 9.5: a target of 7.5.
        #expect(lattice.settlingTarget(target: 10, settle: 3, phase: 9.5) == 7.5)
        // Arrivals right on the pulls (phase 0), a 2 ms target: settle at 1 ms, target −2.
        #expect(lattice.settlingTarget(target: 2, settle: 3, phase: 0) == -2)
        // A higher lattice point, still below the settling point: 30.5 under 33 (target 30).
        #expect(lattice.settlingTarget(target: 30, settle: 3, phase: 0.5) == 28.5)
    }

    @Test func aLatticePointBelowTheTargetsBucketLeavesTheTargetAlone() {
        // Phase 5 and a 12 ms target: the point under 15 is 15 itself, 15 + 1 − 3 = 13 > 12.
        #expect(lattice.settlingTarget(target: 12, settle: 3, phase: 5) == 12)
        // Phase 6, target 20: the point under 23 is 16, below the target's bucket (18–20) by
        // more than the guard: the packets that needed 18–20 ms would be late at 17.
        #expect(lattice.settlingTarget(target: 20, settle: 3, phase: 6) == 20)
        // Phase 7: 17 is within the guard of the bucket (a point wandered with the pulls).
        #expect(lattice.settlingTarget(target: 20, settle: 3, phase: 7) == 15)
        // Not a number: the target.
        #expect(lattice.settlingTarget(target: 20, settle: 3, phase: .nan) == 20)
    }
}

/// The lattice in a buffer: a loss-free stream whose packets come 9.5 ms before the pull that
/// first needs them (two endpoints ticking in phase, the packet landing just after a pull), or
/// 0.5 ms before it. The delay settles 1 ms above the wait, not the target's bucket plus 3 ms
/// above it, and no packet comes late.
@Suite struct PullLatticeBufferTests {
    /// 3000 packets 40 ms (plus `offset`) in transit, pulls every 10 ms from 0: the mean delay of
    /// the last 40 s of pulls, and the replay.
    static func steadyStream(offset: Double) -> (meanDelay: Double, replay: Replay) {
        let script = Script.stream(count: 3000, delay: { _ in 40 + offset })
        let result = replay(script, pulls: 6000)
        let settled = result.delays[2000..<5900].map(\.current)
        return (settled.reduce(0, +) / Double(settled.count), result)
    }

    @Test(arguments: [(0.5, 9.5), (9.5, 0.5)])
    func aSteadyStreamSettlesJustAboveItsWaitForThePull(offset: Double, wait: Double) {
        let (meanDelay, result) = Self.steadyStream(offset: offset)
        #expect(meanDelay >= wait && meanDelay <= wait + PullLattice.guardMilliseconds + 0.5, "mean delay \(meanDelay) ms")
        #expect(result.statistics.latePackets == 0)
        #expect(result.statistics.concealedSamples == 0)
    }
}
