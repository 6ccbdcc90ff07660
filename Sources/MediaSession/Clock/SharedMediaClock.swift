import Locking

/// Something a ``SharedMediaClock`` runs once per tick interval.
protocol MediaTicking: AnyObject, Sendable {
    /// Reads what arrived on the member's sockets (into `batch`, the driving thread's), then
    /// runs `periods` 10 ms periods at `monotonicNanoseconds` (the clock's reading as the slot
    /// began); returns false when the member is done, and it is then ticked no more.
    func tick(monotonicNanoseconds: Int64, periods: Int, receivingInto batch: inout DatagramBatch) -> Bool
    /// The clock stopped with the member still on it: end now. Called once, instead of any
    /// further tick, after the thread that drove the clock has stopped.
    func clockStopped()
    /// Starts bringing into the cache what its tick will touch, at `stage` (see ``PrefetchStage``):
    /// ``PrefetchStage/parts`` or ``PrefetchStage/partsOfParts`` (the clock warms the member's
    /// own object itself, without touching it).
    func prefetch(_ stage: PrefetchStage)
}

extension MediaTicking {
    /// Nothing to bring in ahead.
    func prefetch(_ stage: PrefetchStage) {}
}

/// The audio ticks of the sessions one I/O thread serves, one per tick interval (a whole number
/// of 10 ms periods) each, spread over a ``TickWheel`` so that the work of hundreds of calls is
/// not bunched at one instant. It has no thread of its own: a
/// ``UDPEventLoop`` runs the due slots after each look at its sockets
/// (``runDueTicks(receivingInto:)``), and each session's tick first reads its own sockets, so
/// a session's receive path and its playout run on the same thread and core, back to back: its
/// state (the jitter buffer, the statistics, the SRTP contexts) is brought into the cache once
/// per tick and never moves between cores.
///
/// Each member's state has left the caches since its last tick (hundreds of legs' state fits
/// no cache), and taking those misses one by one as the tick reaches each object cost about as
/// much as the tick's work; so while one member ticks, the next ones are warmed in stages
/// (``MediaTicking/prefetch(_:)``), each stage reading only what the stage before brought in.
///
/// The ticks run outside the wheel's lock (on a retained copy of the slot's members): adding
/// a session from another thread never waits for a tick.
final class SharedMediaClock: Sendable {
    /// A member on the wheel, with where its object lies: the first warming stage prefetches
    /// those lines from the address alone. Reaching the member through its reference (a retain,
    /// a call) writes or reads its object's first line, a miss the clock would wait for: the
    /// member's next stages are warmed, through the reference, only once its object is on its
    /// way in.
    private struct Member {
        let ticking: any MediaTicking
        /// The object's address (an integer, to keep the wheel `Sendable`) and its cache lines,
        /// read once when it joins (its heap block's size, by glibc).
        let address: UInt
        let lines: Int

        init(_ ticking: any MediaTicking) {
            self.ticking = ticking
            address = CachePrefetch.address(of: ticking)
            lines = CachePrefetch.lines(of: ticking)
        }
    }

    private struct State {
        var wheel: TickWheel<Member>
        var stopped = false
    }

    private let clock: any MonotonicClock
    private let state: PThreadLock<State>
    /// The 10 ms periods each member runs per tick.
    let periodsPerTick: Int

    /// A wheel of `slotCount` slots per tick of `periodsPerTick` 10 ms periods on `clock`.
    init(clock: any MonotonicClock, periodsPerTick: Int = 1, slotCount: Int, maximumLagNanoseconds: Int64) {
        self.clock = clock
        self.periodsPerTick = max(1, periodsPerTick)
        state = PThreadLock(
            State(
                wheel: TickWheel(
                    periodNanoseconds: Int64(self.periodsPerTick) * 10_000_000, slotCount: slotCount,
                    maximumLagNanoseconds: maximumLagNanoseconds, start: clock.nanoseconds()
                )))
    }

    /// Starts ticking `member` from its slot's next turn (within one period); a clock already
    /// stopped ends it at once (``MediaTicking/clockStopped()``).
    func add(_ member: any MediaTicking) {
        let added = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if state.wheel.count == 0 { state.wheel.restart(at: clock.nanoseconds()) }
            state.wheel.add(Member(member))
            return true
        }
        if !added { member.clockStopped() }
    }

    /// How many members the clock ticks.
    var memberCount: Int {
        state.withLock { $0.wheel.count }
    }

    /// Runs every slot that is due now, on the driving thread (one at a time), the members
    /// receiving into `batch`; returns when the next slot is due, or nil when the wheel is empty.
    func runDueTicks(receivingInto batch: inout DatagramBatch) -> Int64? {
        while true {
            let due = state.withLock { state -> (members: [Member]?, next: Int64?) in
                guard !state.stopped, state.wheel.count > 0 else { return (nil, nil) }
                guard let slot = state.wheel.takeDue(now: clock.nanoseconds()) else { return (nil, state.wheel.nextDeadline) }
                return (state.wheel.slots[slot], nil)
            }
            guard let members = due.members else { return due.next }
            let now = clock.nanoseconds()
            for index in members.indices {
                for stage in PrefetchStage.allCases where index + stage.membersAhead < members.count {
                    if stage == .object {
                        // From the two fields alone: a copy of the member would retain it.
                        CachePrefetch.memory(
                            atAddress: members[index + stage.membersAhead].address, lines: members[index + stage.membersAhead].lines)
                    } else {
                        members[index + stage.membersAhead].ticking.prefetch(stage)
                    }
                }
                if !members[index].ticking.tick(monotonicNanoseconds: now, periods: periodsPerTick, receivingInto: &batch) {
                    let address = members[index].address
                    state.withLock { _ = $0.wheel.remove { $0.address == address } }
                }
            }
        }
    }

    /// Ends the members still on the clock (``MediaTicking/clockStopped()``) and takes no more;
    /// call it once the driving thread no longer runs ``runDueTicks(receivingInto:)``. Idempotent.
    func stop() {
        let left = state.withLock { state -> [any MediaTicking] in
            state.stopped = true
            defer { state.wheel = TickWheel(periodNanoseconds: state.wheel.periodNanoseconds, slotCount: state.wheel.slots.count, start: 0) }
            return state.wheel.slots.flatMap { $0.map(\.ticking) }
        }
        for member in left { member.clockStopped() }
    }
}
