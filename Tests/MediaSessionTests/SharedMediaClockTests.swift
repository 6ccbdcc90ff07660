import Foundation
@testable import MediaSession
import Synchronization
import Testing

/// The shared media clock's thread, on an injected clock that jumps to each deadline instead
/// of sleeping: the ticks land exactly on the injected clock's 10 ms marks, whatever the real time.
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
        // @unchecked: `times` is written by the clock's thread only, read after `done`.
        private(set) var times: [Int64] = []
        private(set) var stoppedByClock = false
        private let ticks: Int
        let done = DispatchSemaphore(value: 0)

        init(ticks: Int) {
            self.ticks = ticks
            times.reserveCapacity(min(ticks, 1024))
        }

        func tick(monotonicNanoseconds: Int64) -> Bool {
            times.append(monotonicNanoseconds)
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

    @Test func ticksEveryMemberEveryTenMillisecondsOfTheInjectedClock() {
        let clock = SharedMediaClock(clock: FastForwardClock(), slotCount: 10, maximumLagNanoseconds: 40_000_000)
        defer { clock.shutdown() }
        let members = (0..<12).map { _ in CountingMember(ticks: 200) }
        members.forEach(clock.add)
        for member in members {
            #expect(member.done.wait(timeout: .now() + 30) == .success, "the member was not ticked 200 times")
            let gaps = Set(zip(member.times.dropFirst(), member.times).map { $0 - $1 })
            #expect(gaps == [10_000_000], "ticks \(gaps) ns apart on the injected clock")
        }
        // Members that returned false are dropped from the wheel once that tick has returned
        // (the member signals from inside it): wait for the timing thread to get there.
        let deadline = DispatchTime.now() + 5
        while clock.memberCount != 0, DispatchTime.now() < deadline { usleep(1000) }
        #expect(clock.memberCount == 0)
    }

    @Test func shutdownEndsTheMembersStillOnTheClock() {
        let clock = SharedMediaClock(clock: FastForwardClock(), slotCount: 10, maximumLagNanoseconds: 40_000_000)
        let member = CountingMember(ticks: .max)
        clock.add(member)
        clock.shutdown()
        #expect(member.done.wait(timeout: .now() + 10) == .success)
        #expect(member.stoppedByClock)
        clock.shutdown()
    }
}
