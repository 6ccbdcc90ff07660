import CAllocationCounter

/// Counts heap allocations made while a piece of code runs.
///
/// The count comes from `malloc`/`calloc`/`realloc`/`posix_memalign` interposed in the
/// `CAllocationCounter` C target, which is linked only into the benchmark harness and the tests.
/// ``counting(_:)`` counts the calling thread only, so tests running in parallel on other
/// threads do not disturb it; work that `body` hands to other threads is not counted.
public enum AllocationCounter {
    /// Whether allocations are counted. They are not in sanitizer builds (their runtimes
    /// interpose `malloc` themselves), where every count is 0.
    public static var isAvailable: Bool { mb_allocation_counting_available() != 0 }

    /// The number of allocations made by the whole process so far.
    public static var total: UInt64 { mb_allocation_count() }

    /// The number of allocations made by the calling thread so far.
    public static var currentThread: UInt64 { mb_thread_allocation_count() }

    /// Runs `body` and returns how many allocations it made on this thread, with its result.
    public static func counting<Result>(_ body: () throws -> Result) rethrows -> (allocations: UInt64, result: Result) {
        let before = currentThread
        let result = try body()
        return (currentThread &- before, result)
    }
}
