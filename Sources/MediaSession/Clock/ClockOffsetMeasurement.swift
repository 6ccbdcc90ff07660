/// One reading of the wall clock between two readings of the monotonic clock: where the two
/// clocks stand against each other (``offsetNanoseconds``), and how sure that is
/// (``uncertaintyNanoseconds``, the time the reading took).
public struct ClockOffsetMeasurement: Sendable, Equatable {
    /// The monotonic clock just before the wall clock was read.
    public var monotonicBeforeNanoseconds: Int64
    /// The wall clock, nanoseconds since the Unix epoch.
    public var wallNanoseconds: Int64
    /// The monotonic clock just after.
    public var monotonicAfterNanoseconds: Int64

    /// A reading taken by the caller.
    public init(monotonicBeforeNanoseconds: Int64, wallNanoseconds: Int64, monotonicAfterNanoseconds: Int64) {
        self.monotonicBeforeNanoseconds = monotonicBeforeNanoseconds
        self.wallNanoseconds = wallNanoseconds
        self.monotonicAfterNanoseconds = monotonicAfterNanoseconds
    }

    /// The narrowest of three readings of `wall` between readings of `monotonic` (a thread
    /// preempted in the middle of one gives a wide reading; three in a row rarely all are).
    public static func measure(monotonic: any MonotonicClock, wall: any WallClock) -> ClockOffsetMeasurement {
        var best: ClockOffsetMeasurement?
        for _ in 0..<3 {
            let before = monotonic.nanoseconds()
            let wallNow = wall.nanoseconds()
            let reading = ClockOffsetMeasurement(
                monotonicBeforeNanoseconds: before, wallNanoseconds: wallNow, monotonicAfterNanoseconds: monotonic.nanoseconds()
            )
            if best.map({ reading.uncertaintyNanoseconds < $0.uncertaintyNanoseconds }) ?? true { best = reading }
        }
        return best!
    }

    /// Wall minus monotonic: add it to a monotonic time to get the wall time of that instant.
    public var offsetNanoseconds: Int64 {
        wallNanoseconds &- (monotonicBeforeNanoseconds &+ uncertaintyNanoseconds / 2)
    }

    /// How long the reading took: the offset is known to within half of it.
    public var uncertaintyNanoseconds: Int64 {
        max(0, monotonicAfterNanoseconds &- monotonicBeforeNanoseconds)
    }
}
