import Glibc

/// The clock that paces a session's 10 ms audio ticks: monotonic nanoseconds, and a way to
/// sleep until a point on it. Injected into ``MediaRuntime`` so the pacing can be driven by
/// something other than the system's CLOCK_MONOTONIC.
public protocol MonotonicClock: Sendable {
    /// Now, in nanoseconds from an arbitrary fixed origin; never goes backwards.
    func nanoseconds() -> Int64
    /// Blocks the calling thread until ``nanoseconds()`` reaches `deadline` (returns at once
    /// when it has passed).
    func sleep(untilNanoseconds deadline: Int64)
}

/// The system's CLOCK_MONOTONIC: the default clock of every session and runtime.
public struct SystemMonotonicClock: MonotonicClock {
    /// The system clock.
    public init() {}

    /// Now on CLOCK_MONOTONIC, in nanoseconds.
    public func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Sleeps with `clock_nanosleep` on an absolute CLOCK_MONOTONIC deadline.
    public func sleep(untilNanoseconds deadline: Int64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
