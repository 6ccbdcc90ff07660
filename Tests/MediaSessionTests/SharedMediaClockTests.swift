import Foundation
@testable import MediaSession
import Synchronization
import Testing

/// The media clock driven as an I/O thread drives it, here by the test's thread, on an injected
/// clock that jumps to each deadline instead of sleeping: the ticks land exactly on the injected
/// clock's 10 ms marks, whatever the real time.
@Suite struct SharedMediaClockTests {
    /// A clock whose time moves only when the thread sleeps: straight to the deadline.
    private final class FastForwardClock: MonotonicClock {
        private let now = Atomic<Int64>(1_000_000_000)

        func nanoseconds() -> Int64 {
            now.load(ordering: .acquiring)
        }

        func sleep(untilNanoseconds deadline: Int64) {
            _ = now.max(deadline, ordering: .acquiringAndReleasing)
        }
    }

    /// Records the clock readings it is ticked at, and leaves after `ticks` ticks.
    private final class CountingMember: MediaTicking, @unchecked Sendable {
        // @unchecked: `times` is written by the driving thread only, read after `done`.
        private(set) var times: [Int64] = []
        private(set) var periods: Set<Int> = []
        private(set) var stoppedByClock = false
        private let ticks: Int
        let done = DispatchSemaphore(value: 0)

        init(ticks: Int) {
            self.ticks = ticks
            times.reserveCapacity(min(ticks, 1024))
        }

        func tick(monotonicNanoseconds: Int64, periods: Int, receivingInto batch: inout DatagramBatch) -> Bool {
            times.append(monotonicNanoseconds)
            self.periods.insert(periods)
            if times.count == ticks {
                done.signal()
                return false
            }
            return true
        }

        func clockStopped() {
            stoppedByClock = true
            done.signal()
        }
    }

    /// Writes what the clock asks of it (its prefetch stages, its tick) into a shared log, and
    /// leaves after one tick.
    private final class LoggingMember: MediaTicking, @unchecked Sendable {
        // @unchecked: the log is written by the driving thread only, read after the drive.
        final class Log: @unchecked Sendable {
            var entries: [String] = []
        }

        private let name: String
        private let log: Log

        init(name: String, log: Log) {
            self.name = name
            self.log = log
        }

        func tick(monotonicNanoseconds: Int64, periods: Int, receivingInto batch: inout DatagramBatch) -> Bool {
            log.entries.append("\(name) tick")
            return false
        }

        func prefetch(_ stage: PrefetchStage) {
            log.entries.append("\(name) \(stage)")
        }

        func clockStopped() {}
    }

    /// Runs the clock's due slots and sleeps to the next deadline until no member is left.
    private func drive(_ clock: SharedMediaClock, on injected: FastForwardClock) {
        var batch = DatagramBatch(capacity: 1)
        while let deadline = clock.runDueTicks(receivingInto: &batch) { injected.sleep(untilNanoseconds: deadline) }
    }

    /// Every member was ticked `times` times, its ticks `everyNanoseconds` apart on the injected clock.
    private func expectTicked(_ members: [CountingMember], times: Int, everyNanoseconds: Int64) {
        for member in members {
            #expect(member.done.wait(timeout: .now()) == .success, "the member was not ticked \(times) times")
            let gaps = Set(zip(member.times.dropFirst(), member.times).map { $0 - $1 })
            #expect(gaps == [everyNanoseconds], "ticks \(gaps) ns apart on the injected clock")
        }
    }

    @Test func ticksEveryMemberEveryTenMillisecondsOfTheInjectedClock() {
        let injected = FastForwardClock()
        let clock = SharedMediaClock(clock: injected, slotCount: 10, maximumLagNanoseconds: 40_000_000)
        let members = (0..<12).map { _ in CountingMember(ticks: 200) }
        members.forEach(clock.add)
        drive(clock, on: injected)
        expectTicked(members, times: 200, everyNanoseconds: 10_000_000)
        #expect(clock.memberCount == 0, "members that returned false left the wheel")
        var batch = DatagramBatch(capacity: 1)
        #expect(clock.runDueTicks(receivingInto: &batch) == nil, "an empty wheel schedules nothing")
    }

    @Test func ticksOfTwoPeriodsComeEveryTwentyMilliseconds() {
        let injected = FastForwardClock()
        let clock = SharedMediaClock(clock: injected, periodsPerTick: 2, slotCount: 10, maximumLagNanoseconds: 40_000_000)
        let members = (0..<25).map { _ in CountingMember(ticks: 100) }
        members.forEach(clock.add)
        drive(clock, on: injected)
        expectTicked(members, times: 100, everyNanoseconds: 20_000_000)
        for member in members { #expect(member.periods == [2], "each tick serves two 10 ms periods") }
        let starts = Set(members.map { (($0.times[0] - members[0].times[0]) % 20_000_000 + 20_000_000) % 20_000_000 })
        #expect(starts.count == 10, "the members spread over the 10 slots of 2 ms: \(starts.sorted())")
    }

    @Test func theNextMembersOfASlotAreWarmedInStagesBeforeTheirTicks() {
        let injected = FastForwardClock()
        let clock = SharedMediaClock(clock: injected, slotCount: 1, maximumLagNanoseconds: 40_000_000)
        let log = LoggingMember.Log()
        for index in 0..<5 { clock.add(LoggingMember(name: "m\(index)", log: log)) }
        drive(clock, on: injected)
        // Before each tick: the member three ahead gets its object (from its address, by the
        // clock: no call), two ahead its parts, the next one its parts' parts, and the member
        // itself, just before its tick, what those hold (each stage reads only what the stage
        // before brought in).
        #expect(
            log.entries == [
                "m2 parts", "m1 partsOfParts", "m0 deepParts", "m0 tick",
                "m3 parts", "m2 partsOfParts", "m1 deepParts", "m1 tick",
                "m4 parts", "m3 partsOfParts", "m2 deepParts", "m2 tick",
                "m4 partsOfParts", "m3 deepParts", "m3 tick",
                "m4 deepParts", "m4 tick",
            ])
    }

    @Test func stoppingEndsTheMembersStillOnTheClockAndLaterOnesAtOnce() {
        let injected = FastForwardClock()
        let clock = SharedMediaClock(clock: injected, slotCount: 10, maximumLagNanoseconds: 40_000_000)
        let member = CountingMember(ticks: .max)
        clock.add(member)
        var batch = DatagramBatch(capacity: 1)
        for _ in 0..<30 {
            guard let deadline = clock.runDueTicks(receivingInto: &batch) else { break }
            injected.sleep(untilNanoseconds: deadline)
        }
        #expect(member.times.count >= 2)
        clock.stop()
        #expect(member.done.wait(timeout: .now()) == .success)
        #expect(member.stoppedByClock)
        let late = CountingMember(ticks: .max)
        clock.add(late)
        #expect(late.stoppedByClock, "a member added after the stop ends at once")
        #expect(clock.runDueTicks(receivingInto: &batch) == nil)
        clock.stop()
    }
}
