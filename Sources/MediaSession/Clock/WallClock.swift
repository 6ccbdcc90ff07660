import Glibc

/// The wall clock: CLOCK_REALTIME, the clock of the kernel's receive timestamps
/// (SO_TIMESTAMPNS). It may step at any moment (NTP, an administrator, a leap second, a system
/// resume), so a session reads it only to place its monotonic time on it (see
/// ``WallClockMapping``); nothing is timed on it. Injected through
/// ``MediaSessionConfiguration/wallClock`` so that a test can step it under a running call.
public protocol WallClock: Sendable {
    /// Now, in nanoseconds since the Unix epoch.
    func nanoseconds() -> Int64
    /// A kernel receive timestamp (CLOCK_REALTIME nanoseconds) as this clock read at the
    /// instant the kernel took it. The system clock returns it unchanged; a clock that steps
    /// must step the kernel's stamps with it, as a real step does.
    func receiveTimestamp(kernelNanoseconds: Int64) -> Int64
}

extension WallClock {
    /// The kernel's stamp as is: it was taken on this clock.
    public func receiveTimestamp(kernelNanoseconds: Int64) -> Int64 {
        kernelNanoseconds
    }
}

/// The system's CLOCK_REALTIME: the default wall clock of every session.
public struct SystemWallClock: WallClock {
    /// The system clock.
    public init() {}

    /// Now on CLOCK_REALTIME, in nanoseconds since the Unix epoch.
    public func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
