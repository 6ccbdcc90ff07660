@testable import MediaSession
import Testing

/// The periods a stalled timer skipped, as a pure value: ticks are given times, no clock runs.
@Suite struct SkippedPeriodsTests {
    private static let period: Int64 = 10_000_000

    private func counter() -> SkippedPeriods {
        SkippedPeriods(periodNanoseconds: Self.period, maximumLagNanoseconds: 40_000_000)
    }

    /// The session's own timer (``AudioLoop/startOwnThread(clock:)``), simulated: each deadline
    /// one period after the last, moved up to 40 ms behind the clock after a stall; a tick
    /// starts at its deadline, or later by what `lateness` maps its index to (the thread did not
    /// run). Returns each tick's skipped periods, and the periods served and skipped and the
    /// clock's elapsed periods at the end.
    private func ownTimer(ticks: Int, lateness: [Int: Int64]) -> (skipped: [Int], accounted: Int64, elapsed: Int64) {
        var skipped = counter()
        var deadline: Int64 = 0
        var now: Int64 = 0
        var results: [Int] = []
        for index in 0..<ticks {
            deadline += Self.period
            now = max(now, deadline) + (lateness[index] ?? 0)
            deadline = max(deadline, now - 40_000_000)
            results.append(skipped.tick(periods: 1, now: now))
        }
        return (results, Int64(ticks + results.reduce(0, +)), now / Self.period)
    }

    /// A tick 1 s late: it starts 1010 ms after the one before, 101 periods; it serves one and
    /// the timer catches up four more in a burst: 96 were skipped, counted at that tick, once
    /// (the burst counts none).
    @Test func aOneSecondStallSkipsWhatTheTimerDoesNotCatchUp() {
        let run = ownTimer(ticks: 300, lateness: [101: 1_000_000_000])
        #expect(run.skipped[101] == 96)
        #expect(run.skipped.enumerated().allSatisfy { $0.offset == 101 || $0.element == 0 }, "skips \(run.skipped.filter { $0 != 0 })")
        #expect(run.accounted == run.elapsed)
    }

    /// Ticks late by up to 30 ms (a loaded machine), caught up in bursts: nothing skipped.
    @Test func lateTicksWithinTheCatchUpSkipNothing() {
        let lateness = Dictionary(uniqueKeysWithValues: stride(from: 7, to: 59_900, by: 13).map { ($0, Int64($0 % 31) * 1_000_000) })
        let run = ownTimer(ticks: 60_000, lateness: lateness)
        #expect(run.skipped.allSatisfy { $0 == 0 })
        #expect(run.accounted == run.elapsed)
    }

    /// An hour of ticks with a 1 s stall every minute: 96 skipped at each, nothing else, and
    /// the periods served and skipped still add up to the clock's at the end (no drift).
    @Test func stallsOverAnHourNeverDrift() {
        let stalls = Dictionary(uniqueKeysWithValues: stride(from: 6000, to: 360_000, by: 6000).map { ($0, Int64(1_000_000_000)) })
        let run = ownTimer(ticks: 360_000, lateness: stalls)
        #expect(run.skipped.filter { $0 != 0 } == Array(repeating: 96, count: stalls.count))
        #expect(run.accounted == run.elapsed)
    }

    /// A leg on a runtime's wheel of 20 ms ticks (two periods each, in one of ten slots) whose
    /// thread stops for a second: the real ``TickWheel`` catches up at most 40 ms and skips the
    /// rest; what the leg counts as skipped plus what it served is the clock's periods, never
    /// more (it never counts the burst), and short by at most one tick (when the wheel caught
    /// the leg up by one tick less than 40 ms allows).
    @Test func aWheelOfTwoPeriodTicksSkipsTheStallToWithinOneTick() {
        final class Member {}
        for slotCount in [1, 3, 10] {
            for stallNanoseconds: Int64 in [45_000_000, 333_000_000, 1_000_000_000, 2_007_000_000] {
                var wheel = TickWheel<Member>(periodNanoseconds: 2 * Self.period, slotCount: slotCount, start: 0)
                let member = Member()
                let slot = wheel.add(member)
                var skipped = counter()
                var served: Int64 = 0
                var total: Int64 = 0
                var start: Int64?
                var now: Int64 = 0
                var last: Int64 = 0
                while now < 4_000_000_000 {
                    while let due = wheel.takeDue(now: now) {
                        guard due == slot else { continue }
                        if start == nil { start = now - 2 * Self.period }
                        total += Int64(skipped.tick(periods: 2, now: now))
                        served += 2
                        last = now
                    }
                    now += now == 1_500_000_000 ? stallNanoseconds : 100_000
                }
                let elapsed = (last - (start ?? 0)) / Self.period
                let stalled = (served + total) - elapsed
                #expect((-2...0).contains(stalled), "slots \(slotCount), stall \(stallNanoseconds): \(served) served, \(total) skipped, \(elapsed) elapsed")
                // The stall less the catch-up: 40 ms, up to a slot more, and the tick it began in.
                let expected = (stallNanoseconds - 40_000_000) / Self.period
                #expect((expected - 4...expected).contains(total), "slots \(slotCount), stall \(stallNanoseconds): \(total) skipped")
            }
        }
    }

    /// A new endpoint starts the count again: the time before it is not held against it.
    @Test func restartForgetsTheTimeBefore() {
        var skipped = counter()
        #expect(skipped.tick(periods: 1, now: 10_000_000) == 0)
        skipped.restart()
        #expect(skipped.tick(periods: 1, now: 5_000_000_000) == 0)
        #expect(skipped.tick(periods: 1, now: 5_010_000_000) == 0)
        #expect(skipped.tick(periods: 1, now: 5_510_000_000) == 45)
    }
}
