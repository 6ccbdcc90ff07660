@testable import MediaSession
import Testing

/// The shared media clock's schedule as a pure state machine: time is passed in.
@Suite struct TickWheelTests {
    private final class Member {}

    /// Runs the wheel from `start` to `end` in 100 µs steps, taking every due slot; returns
    /// the times each member was run at.
    private func run(_ wheel: inout TickWheel<Member>, members: [Member], from start: Int64, to end: Int64) -> [[Int64]] {
        var times = [[Int64]](repeating: [], count: members.count)
        var now = start
        while now < end {
            while let slot = wheel.takeDue(now: now) {
                for member in wheel.slots[slot] {
                    times[members.firstIndex { $0 === member }!].append(now)
                }
            }
            now += 100_000
        }
        return times
    }

    @Test func everyMemberIsDueOncePerPeriodAtItsSlot() {
        var wheel = TickWheel<Member>(slotCount: 10, start: 0)
        let members = (0..<25).map { _ in Member() }
        for member in members { wheel.add(member) }
        let times = run(&wheel, members: members, from: 0, to: 1_000_000_000)
        for memberTimes in times {
            #expect(memberTimes.count == 100, "one tick per 10 ms over a second")
            let gaps = zip(memberTimes.dropFirst(), memberTimes).map { $0 - $1 }
            #expect(gaps.allSatisfy { $0 == 10_000_000 }, "\(Set(gaps))")
        }
    }

    @Test func membersAreSpreadEvenlyOverTheSlots() {
        var wheel = TickWheel<Member>(slotCount: 10, start: 0)
        for _ in 0..<95 { wheel.add(Member()) }
        let sizes = wheel.slots.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "\(sizes)")
        #expect(wheel.count == 95)
    }

    @Test func aRemovedMemberIsNotRunAgain() {
        var wheel = TickWheel<Member>(slotCount: 4, start: 0)
        let kept = Member()
        let removed = Member()
        wheel.add(kept)
        wheel.add(removed)
        #expect(wheel.remove { $0 === removed })
        #expect(!wheel.remove { $0 === removed })
        let times = run(&wheel, members: [kept, removed], from: 0, to: 100_000_000)
        #expect(times[0].count == 10)
        #expect(times[1].isEmpty)
    }

    /// After a stall longer than the lag allowed, the wheel catches up at most that much in a
    /// burst and skips the rest, as a session's own timer does.
    @Test func aStallIsCaughtUpOnlyAsFarAsTheLagAllows() {
        var wheel = TickWheel<Member>(slotCount: 10, maximumLagNanoseconds: 40_000_000, start: 0)
        let member = Member()
        wheel.add(member)
        let stalledUntil: Int64 = 500_000_000
        var burst = 0
        while let slot = wheel.takeDue(now: stalledUntil) {
            burst += wheel.slots[slot].count
        }
        #expect((4...5).contains(burst), "\(burst) ticks in the burst after a 500 ms stall")
        #expect(wheel.nextDeadline > stalledUntil)
    }

    @Test func nothingIsDueBeforeTheNextDeadline() {
        var wheel = TickWheel<Member>(slotCount: 10, start: 5_000_000)
        wheel.add(Member())
        #expect(wheel.takeDue(now: 4_999_999) == nil)
        #expect(wheel.takeDue(now: 5_000_000) != nil)
        #expect(wheel.nextDeadline == 6_000_000)
        wheel.restart(at: 90_000_000)
        #expect(wheel.takeDue(now: 89_000_000) == nil)
    }
}
