/// A value guarded by a ``PThreadMutex``: the state is reachable only inside ``withLock(_:)``.
///
/// Give it real state; for a lock that guards nothing but a critical section use
/// ``PThreadMutex`` itself (a zero-size state here made ThreadSanitizer see its storage alias
/// the mutex pointer).
public final class PThreadLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched inside `withLock`, which holds `mutex`; for the same
    // reason Swift's run-time exclusivity check on it (a thread-local access set, per critical
    // section) is turned off: the mutex already makes each access exclusive.
    @usableFromInline let mutex = PThreadMutex()
    @usableFromInline @exclusivity(unchecked) var state: State

    /// A lock guarding `state`.
    public init(_ state: State) {
        self.state = state
    }

    /// Reports where its `pthread_mutex_t` lies to `visit` (see ``PThreadMutex/hotRegions(_:)``).
    package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        mutex.hotRegions(visit)
    }

    /// Runs `body` with exclusive access to the state (inlinable, as ``PThreadMutex/withLock(_:)``).
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&state) }
    }
}
