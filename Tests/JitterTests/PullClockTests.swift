import PlayoutLab
import Testing

@testable import Jitter

/// The instants pulls were due: pulls are never early, only late, so the earliest phase of the
/// recent pulls is the grid.
@Suite struct PullClockTests {
    /// The due instants of pulls that came at `times`.
    static func dues(_ times: [Double], period: Double = 10) -> [Double] {
        var clock = PullClock(periodMilliseconds: period)
        return times.map { clock.dueMilliseconds(pullAt: $0) }
    }

    @Test func pullsOnTheGridAreDueWhenTheyCome() {
        #expect(Self.dues([5, 15, 25, 35]) == [5, 15, 25, 35])
    }

    @Test func aLatePullIsDueOnTheGrid() {
        // The fourth pull ran 3.5 ms late, the sixth 9 ms late (the next one on time).
        #expect(Self.dues([0, 10, 20, 33.5, 40, 59, 60]) == [0, 10, 20, 30, 40, 50, 60])
    }

    @Test func aGapOfMoreThanTwoPeriodsStartsTheGridAgain() {
        // The clock stopped for 70 ms and came back 3 ms off the old grid: the old phase is no
        // evidence that the new pulls are late.
        #expect(Self.dues([0, 10, 20, 93, 103, 113]) == [0, 10, 20, 93, 103, 113])
        // A clock that went back in time, too.
        #expect(Self.dues([100, 110, 50, 60]) == [100, 110, 50, 60])
    }

    @Test func aSlowPullClockLagsTheGridByLittle() {
        // 800 ppm slow: the earliest phase of the last 16 pulls is at most 15 × 0.008 ms behind.
        let times = (0..<1000).map { Double($0) * 10.008 }
        let lag = zip(times, Self.dues(times)).map { $0 - $1 }
        #expect(lag.allSatisfy { $0 >= 0 && $0 <= 15 * 0.008 + 1e-9 }, "largest lag \(lag.max() ?? 0)")
        // A fast one (pulls 9.992 ms apart) is on its own grid: every pull is due when it comes.
        let fast = (0..<1000).map { Double($0) * 9.992 }
        #expect(Self.dues(fast) == fast)
    }
}

/// A loss-free stream whose packets land 0.3 ms after a pull (two endpoints ticking in phase),
/// through a buffer whose audio thread runs every fifth pull 4 ms late (a busy machine): the
/// packet played by a late pull waited 9.7 ms for the pull's due instant, not 13.7 ms, so the
/// delay settles 1 ms above the 9.7 ms wait as on an idle machine. Timed at the late instants,
/// such packets needed 13.7 ms, past the lattice point: the target rose to 14 ms and the delay
/// settled at 17 ms.
@Suite struct LatePullTests {
    @Test func latePullsDoNotRaiseTheDelay() {
        let script = Script.stream(count: 3000, delay: { _ in 40.3 })
        let result = replay(script, pulls: 6000, pullMilliseconds: { Double($0) * 10 + ($0 % 5 == 3 ? 4 : 0) })
        let settled = result.delays[2000..<5900]
        let meanDelay = settled.map(\.current).reduce(0, +) / Double(settled.count)
        #expect(meanDelay >= 9.7 - 1e-6 && meanDelay <= 9.7 + PullLattice.guardMilliseconds + 0.5, "mean delay \(meanDelay) ms")
        #expect(settled.allSatisfy { $0.target <= 10 }, "largest target \(settled.map(\.target).max() ?? 0) ms")
        #expect(result.statistics.latePackets == 0)
        #expect(result.statistics.concealedSamples == 0)
    }
}
