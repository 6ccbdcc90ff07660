import Glibc
import RTP

/// The clocks of a session: wall-clock time (the clock of kernel receive timestamps and of
/// RTCP's NTP fields) and a monotonic 10 ms pacer for endpoints that do not pace themselves.
enum MediaClock {
    /// Now on CLOCK_REALTIME, the clock of SO_TIMESTAMPNS arrival times.
    static func now() -> MediaTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return MediaTime(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// Now on CLOCK_MONOTONIC, in nanoseconds.
    static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Sleeps until `deadline` on CLOCK_MONOTONIC (returns at once when it has passed).
    static func sleep(untilMonotonicNanoseconds deadline: Int64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
