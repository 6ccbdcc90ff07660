#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on `pthread_mutex_t` around a value, for the short critical sections
/// in which media threads feed the monitor. Chosen over `Synchronization.Mutex` because
/// ThreadSanitizer understands it (SWIFT-NOTES.md: the uninstrumented standard library makes
/// `Mutex` look racy).
final class MonitorLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched inside `withLock`, which holds `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
