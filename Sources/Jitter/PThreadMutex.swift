#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`.
///
/// Chosen over `Synchronization.Mutex` because ThreadSanitizer understands pthread mutexes:
/// `Mutex.withLock` is reported as a Swift access race even when used correctly, since the
/// standard library is not instrumented (see SWIFT-NOTES.md).
final class PThreadMutex: @unchecked Sendable {
    // Safe to share: the pthread mutex is the synchronisation primitive itself, and the pointer
    // is only read after initialisation.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
