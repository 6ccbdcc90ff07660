import CAllocationCounter

/// Counts heap allocations made while a piece of code runs.
///
/// The count comes from `malloc`/`calloc`/`realloc`/`posix_memalign` interposed in the
/// `CAllocationCounter` C target, which is linked only into the benchmark harness and the tests.
/// It counts every thread, so measure with no other work running.
public enum AllocationCounter {
    /// The number of allocations made by the process so far.
    public static var total: UInt64 { mb_allocation_count() }

    /// Runs `body` and returns how many allocations it made, with its result.
    public static func counting<Result>(_ body: () throws -> Result) rethrows -> (allocations: UInt64, result: Result) {
        let before = total
        let result = try body()
        return (total &- before, result)
    }
}
