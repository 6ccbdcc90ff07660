import Glibc

/// A mutual-exclusion lock on `pthread_mutex_t`, for the short critical sections of the data
/// plane. Chosen over `Synchronization.Mutex` because ThreadSanitizer understands it (see
/// SWIFT-NOTES.md: the uninstrumented standard library makes `Mutex` look racy).
final class Lock<State>: @unchecked Sendable {
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
