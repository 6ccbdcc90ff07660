import Foundation
import Locking

/// Something a ``SharedMediaClock`` runs once per audio period.
protocol MediaTicking: AnyObject, Sendable {
    /// Runs one 10 ms period at `monotonicNanoseconds` (the clock's reading as the slot began);
    /// returns false when the member is done, and it is then ticked no more.
    func tick(monotonicNanoseconds: Int64) -> Bool
    /// The clock is shutting down with the member still on it: end now. Called once, on the
    /// clock's thread, instead of any further tick.
    func clockStopped()
}

/// One timing thread that runs the 10 ms audio tick of every session on it, spread over a
/// ``TickWheel`` so that the work of hundreds of calls is not bunched at one instant. Sleeps on
/// the injected ``MonotonicClock`` between slots, and on a semaphore while it has no member.
///
/// The ticks run outside the wheel's lock (on a retained copy of the slot's members): adding
/// or removing a session never waits for another session's tick.
final class SharedMediaClock: Sendable {
    private struct State {
        var wheel: TickWheel<any MediaTicking>
        var idle = false
        var stopping = false
    }

    /// What the thread does next.
    private enum Step {
        case run([any MediaTicking])
        case sleep(until: Int64)
        case idle
        case stop
    }

    private let clock: any MonotonicClock
    private let state: PThreadLock<State>
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the timing thread with a wheel of `slotCount` slots per 10 ms.
    init(clock: any MonotonicClock, slotCount: Int, maximumLagNanoseconds: Int64) {
        self.clock = clock
        state = PThreadLock(
            State(
                wheel: TickWheel(
                    slotCount: slotCount, maximumLagNanoseconds: maximumLagNanoseconds, start: clock.nanoseconds()
                )))
        MediaThread.start(named: "media-clock", qualityOfService: .userInteractive) { [self] in run() }
    }

    /// Starts ticking `member` from its slot's next turn (within one period).
    func add(_ member: any MediaTicking) {
        let wakes = state.withLock { state -> Bool in
            if state.wheel.count == 0 { state.wheel.restart(at: clock.nanoseconds()) }
            state.wheel.add(member)
            defer { state.idle = false }
            return state.idle
        }
        if wakes { wake.signal() }
    }

    /// How many members the clock ticks.
    var memberCount: Int {
        state.withLock { $0.wheel.count }
    }

    /// Stops the thread and waits for it; members still on the clock get ``MediaTicking/clockStopped()``.
    /// Idempotent.
    func shutdown() {
        let (first, wakes) = state.withLock { state -> (Bool, Bool) in
            defer {
                state.stopping = true
                state.idle = false
            }
            return (!state.stopping, state.idle)
        }
        guard first else { return }
        if wakes { wake.signal() }
        finished.wait()
    }

    private func run() {
        loop: while true {
            switch nextStep() {
            case let .run(members):
                let now = clock.nanoseconds()
                for member in members where !member.tick(monotonicNanoseconds: now) {
                    state.withLock { _ = $0.wheel.remove { $0 === member } }
                }
            case let .sleep(deadline):
                clock.sleep(untilNanoseconds: deadline)
            case .idle:
                wake.wait()
            case .stop:
                break loop
            }
        }
        let left = state.withLock { state in
            defer { state.wheel = TickWheel(slotCount: state.wheel.slots.count, start: 0) }
            return state.wheel.slots.flatMap { $0 }
        }
        for member in left { member.clockStopped() }
        finished.signal()
    }

    private func nextStep() -> Step {
        state.withLock { state in
            if state.stopping { return .stop }
            if state.wheel.count == 0 {
                state.idle = true
                return .idle
            }
            guard let slot = state.wheel.takeDue(now: clock.nanoseconds()) else { return .sleep(until: state.wheel.nextDeadline) }
            return .run(state.wheel.slots[slot])
        }
    }
}
