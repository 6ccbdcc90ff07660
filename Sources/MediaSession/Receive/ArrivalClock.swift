import RTP

/// The receive path's view of arrival times, kept by the I/O thread: each datagram's kernel
/// receive timestamp (wall-clock time) mapped onto the session's monotonic media time through
/// a ``WallClockMapping``, measured again every second and whenever a stamp looks wrong.
/// A datagram without a stamp (receive timestamps off) arrives when it is read.
struct ArrivalClock {
    let clock: MediaClock
    private var mapping: WallClockMapping

    init(clock: MediaClock) {
        self.clock = clock
        mapping = WallClockMapping(clock.measureOffset())
    }

    /// The media time a datagram with kernel stamp `kernelNanoseconds` (0 for none) arrived,
    /// and how far the wall clock stepped (nanoseconds) if a step was found on the way.
    mutating func arrival(ofKernelNanoseconds kernelNanoseconds: Int64) -> (time: MediaTime, step: Int64?) {
        let now = clock.monotonic.nanoseconds()
        guard kernelNanoseconds > 0 else { return (clock.time(monotonicNanoseconds: now), nil) }
        let stamp = clock.wall.receiveTimestamp(kernelNanoseconds: kernelNanoseconds)
        var step: Int64?
        if mapping.needsMeasurement(forWallNanoseconds: stamp, readAtMonotonicNanoseconds: now) {
            step = mapping.update(with: clock.measureOffset())
        }
        let arrival = mapping.monotonicNanoseconds(ofWallNanoseconds: stamp, readAtMonotonicNanoseconds: now)
        return (clock.time(monotonicNanoseconds: arrival), step)
    }
}
