import Locking
import Synchronization

/// How the control plane's requests (``CallControl``) reach the audio tick: the state behind a
/// lock, and a count of its changes that the tick reads first, so that a tick with nothing new
/// costs one atomic load instead of a lock and a copy (hundreds of legs on one media clock
/// tick 100 times a second each).
final class CallControlChannel: Sendable {
    private let state = PThreadLock(CallControl())
    /// Bumped inside the lock by every change.
    private let changes = Atomic<UInt64>(0)

    /// Changes the state (any thread); the next tick sees it.
    @discardableResult
    func update<Result>(_ change: (inout CallControl) -> Result) -> Result {
        state.withLock { control in
            defer { changes.add(1, ordering: .releasing) }
            return change(&control)
        }
    }

    /// The state when it changed since `seen` (then moved on to the change it shows), handing
    /// over its ``CallControl/pendingAudio`` (taken: later copies hold none); nil when nothing changed.
    func takeChanges(since seen: inout UInt64) -> CallControl? {
        guard changes.load(ordering: .acquiring) != seen else { return nil }
        return state.withLock { control in
            seen = changes.load(ordering: .relaxed)
            defer { control.pendingAudio = nil }
            return control
        }
    }

    /// Takes the first pending telephone-event digit, if any.
    func takeDigit() -> UInt8? {
        update { control in control.pendingDigits.isEmpty ? nil : control.pendingDigits.removeFirst() }
    }
}
