import Glibc
import RTP

/// The media time of a session: wall-clock time, the clock of kernel receive timestamps and of
/// RTCP's NTP fields. The 10 ms ticks are paced by a ``MonotonicClock`` instead.
enum MediaClock {
    /// Now on CLOCK_REALTIME, the clock of SO_TIMESTAMPNS arrival times.
    static func now() -> MediaTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return MediaTime(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
}
