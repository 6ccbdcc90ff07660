import Glibc

/// A mutual-exclusion lock on `pthread_mutex_t`, for the short critical sections of the data
/// plane (the jitter buffer between the network and audio threads, the quality monitor, the
/// session's control state).
///
/// Chosen over `Synchronization.Mutex` because ThreadSanitizer understands it: the standard
/// library is not instrumented, so `Mutex.withLock` is reported as a race even when used
/// correctly (see SWIFT-NOTES.md). Locking never allocates.
///
/// A non-copyable value, stored inline in its owner: reaching the lock costs no step through a
/// separate object, whose line a thread ticking hundreds of calls would find cold.
public struct PThreadMutex: ~Copyable, @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation primitive itself, and the pointer is
    // only read after initialisation.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked mutex.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// Reports where the `pthread_mutex_t` lies to `visit`, for warming it into the cache
    /// before a thread locks it; `visit` may only read it.
    @usableFromInline package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        visit(UnsafeRawPointer(mutex), MemoryLayout<pthread_mutex_t>.stride)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the mutex. Inlinable so that each caller's closure is
    /// specialised and inlined: unspecialised, the generic call cost more than the locking
    /// itself on the data plane (`bench session`, the server profile).
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
