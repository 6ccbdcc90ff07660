import Synchronization

/// A clock that moves only when told (or when slept on: sleeping jumps to the deadline), as
/// both the monotonic and the wall clock of a session driven by hand: the pipeline probe and
/// the fuzz targets stamp arrivals on it. Not part of the API.
final class ManualClock: MonotonicClock, WallClock {
    private let time: Atomic<Int64>

    /// A clock reading `nanoseconds`.
    init(nanoseconds: Int64 = 0) {
        time = Atomic(nanoseconds)
    }

    /// The time set last.
    func nanoseconds() -> Int64 {
        time.load(ordering: .relaxed)
    }

    /// Moves to `deadline` if it is later; never blocks.
    func sleep(untilNanoseconds deadline: Int64) {
        time.max(deadline, ordering: .relaxed)
    }

    /// Moves the clock to `nanoseconds`.
    func set(nanoseconds: Int64) {
        time.store(nanoseconds, ordering: .relaxed)
    }
}
