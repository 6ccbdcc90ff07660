/// The schedule of a shared media clock, as a pure state machine: a timer wheel of one audio
/// period (10 ms) cut into equal slots. Each member is placed in the least loaded slot and is
/// due once per period, at its slot's time; spreading members over the slots spreads the work
/// of hundreds of sessions over the period instead of bunching it at one instant.
///
/// Time is given, never read: ``takeDue(now:)`` says which slot to run at `now`. After a stall
/// (the thread did not run for a while) the wheel catches up at most ``maximumLagNanoseconds``
/// of slots in a burst and skips the rest, as a session's own timer does.
struct TickWheel<Member> {
    /// The period every member is due at, in nanoseconds.
    let periodNanoseconds: Int64
    /// The time between two slots.
    let slotNanoseconds: Int64
    /// How far behind the clock the wheel may run before it skips ahead.
    let maximumLagNanoseconds: Int64
    /// The members of each slot.
    private(set) var slots: [[Member]]
    /// When the next slot is due, on the clock the caller passes in.
    private(set) var nextDeadline: Int64

    /// A wheel of `slotCount` slots over `periodNanoseconds`, whose first slot is due at `start`.
    init(periodNanoseconds: Int64 = 10_000_000, slotCount: Int, maximumLagNanoseconds: Int64 = 40_000_000, start: Int64) {
        let slotCount = max(1, min(slotCount, Int(max(periodNanoseconds, 1))))
        self.periodNanoseconds = max(periodNanoseconds, 1)
        slotNanoseconds = self.periodNanoseconds / Int64(slotCount)
        self.maximumLagNanoseconds = max(maximumLagNanoseconds, 0)
        slots = Array(repeating: [], count: slotCount)
        nextDeadline = start
    }

    /// How many members the wheel holds.
    var count: Int {
        slots.reduce(0) { $0 + $1.count }
    }

    /// The slot the next deadline belongs to.
    var nextSlot: Int {
        Int((nextDeadline / slotNanoseconds) % Int64(slots.count))
    }

    /// Adds `member` to the slot with the fewest members (the earliest such after the next
    /// one due, so a new member starts soon); returns that slot.
    @discardableResult
    mutating func add(_ member: Member) -> Int {
        var chosen = nextSlot
        for offset in 0..<slots.count {
            let slot = (nextSlot + offset) % slots.count
            if slots[slot].count < slots[chosen].count { chosen = slot }
        }
        slots[chosen].append(member)
        return chosen
    }

    /// Removes the first member `matches` picks; returns whether there was one.
    @discardableResult
    mutating func remove(where matches: (Member) -> Bool) -> Bool {
        for slot in slots.indices {
            if let index = slots[slot].firstIndex(where: matches) {
                slots[slot].remove(at: index)
                return true
            }
        }
        return false
    }

    /// Makes the next slot due at `now` (after the wheel stood empty, so it does not catch up).
    mutating func restart(at now: Int64) {
        nextDeadline = now
    }

    /// The slot to run at `now`, or nil when the next one is not due yet (then sleep until
    /// ``nextDeadline``). Each call hands out one slot and moves the deadline to the next;
    /// a deadline further than ``maximumLagNanoseconds`` behind `now` is first moved up to it.
    mutating func takeDue(now: Int64) -> Int? {
        guard now >= nextDeadline else { return nil }
        if now - nextDeadline > maximumLagNanoseconds {
            let skipped = (now - maximumLagNanoseconds - nextDeadline) / slotNanoseconds
            nextDeadline += skipped * slotNanoseconds
        }
        let slot = nextSlot
        nextDeadline += slotNanoseconds
        return slot
    }
}
