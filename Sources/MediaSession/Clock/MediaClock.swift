import RTP

/// The time of one session: its injected monotonic clock, placed on the wall clock once, when
/// the session is created. Media time is monotonic time plus that fixed offset, so it reads as
/// wall-clock time (RTCP's NTP fields, reports) yet never steps when the wall clock does:
/// the jitter buffer, the reception statistics, RTCP's schedule and round trips, the
/// no-media watchdog and the quality reports all run on it.
struct MediaClock: Sendable {
    /// The clock everything is timed on.
    let monotonic: any MonotonicClock
    /// The clock the kernel stamps arrivals on, read only to place monotonic time on it.
    let wall: any WallClock
    /// Wall minus monotonic when the session was created.
    let anchorNanoseconds: Int64

    /// A session's clock from its two clocks, anchored now.
    init(monotonic: any MonotonicClock, wall: any WallClock) {
        self.monotonic = monotonic
        self.wall = wall
        anchorNanoseconds = ClockOffsetMeasurement.measure(monotonic: monotonic, wall: wall).offsetNanoseconds
    }

    /// Now, in media time.
    func now() -> MediaTime {
        time(monotonicNanoseconds: monotonic.nanoseconds())
    }

    /// The media time of a monotonic reading.
    func time(monotonicNanoseconds: Int64) -> MediaTime {
        MediaTime(nanoseconds: monotonicNanoseconds &+ anchorNanoseconds)
    }

    /// Both clocks read against each other now.
    func measureOffset() -> ClockOffsetMeasurement {
        ClockOffsetMeasurement.measure(monotonic: monotonic, wall: wall)
    }
}
