/// Maps the kernel's receive timestamps (wall-clock time) onto the monotonic clock a session
/// times everything on, and watches the wall clock for steps. A pure value: the caller reads
/// the clocks and passes what it read.
///
/// On Linux the distance between CLOCK_REALTIME and CLOCK_MONOTONIC changes only when the wall
/// clock steps (NTP slewing moves both alike): so the distance is measured once, at the start,
/// and kept. The caller measures again every ``remeasureIntervalNanoseconds``, and at once when
/// a stamp maps to an implausible time (in the future, or more than
/// ``plausibleAgeNanoseconds`` before it was read); a distance that moved by more than
/// ``stepThresholdNanoseconds`` (and twice the measurement's own uncertainty) is a step. It is
/// counted (``stepCount``) and adopted, so later stamps map to where they always would have;
/// smaller moves are measurement noise and change nothing. Stamps taken just before a step but
/// read after it still map with the distance before it (the one that puts them latest, not
/// after they were read), for ``plausibleAgeNanoseconds`` after the step: no arrival moves.
public struct WallClockMapping: Sendable {
    /// A move of the wall clock against the monotonic one larger than this is a step (1 ms).
    public static let stepThresholdNanoseconds: Int64 = 1_000_000
    /// How often the caller measures again (1 s).
    public static let remeasureIntervalNanoseconds: Int64 = 1_000_000_000
    /// The oldest a stamp may map to, before the moment it was read, without a new
    /// measurement (500 ms: a datagram waits in its socket for far less on a live I/O thread).
    public static let plausibleAgeNanoseconds: Int64 = 500_000_000
    /// How far after the moment it was read a stamp may map (1 ms of measurement error).
    static let futureToleranceNanoseconds: Int64 = 1_000_000

    /// Wall minus monotonic, as measured at the start or adopted at the latest step.
    public private(set) var offsetNanoseconds: Int64
    /// The offset before the latest step, kept for stamps taken before it, while they may
    /// still be in flight.
    private var previousOffset: (offset: Int64, until: Int64)?
    /// The steps seen so far.
    public private(set) var stepCount = 0
    /// When (monotonic) the offset was last measured.
    public private(set) var lastMeasuredNanoseconds: Int64

    /// A mapping from the first measurement.
    public init(_ measurement: ClockOffsetMeasurement) {
        offsetNanoseconds = measurement.offsetNanoseconds
        lastMeasuredNanoseconds = measurement.monotonicAfterNanoseconds
    }

    /// Whether a stamp read at `monotonicNanoseconds` needs a new measurement first: the
    /// periodic one is due, or the stamp does not map plausibly.
    public func needsMeasurement(forWallNanoseconds stamp: Int64, readAtMonotonicNanoseconds now: Int64) -> Bool {
        if now &- lastMeasuredNanoseconds >= Self.remeasureIntervalNanoseconds { return true }
        let mapped = stamp &- offsetNanoseconds
        return mapped > now &+ Self.futureToleranceNanoseconds || mapped < now &- Self.plausibleAgeNanoseconds
    }

    /// Takes a new measurement; returns how far the wall clock stepped (nanoseconds, positive
    /// forward) when it did, else nil.
    public mutating func update(with measurement: ClockOffsetMeasurement) -> Int64? {
        lastMeasuredNanoseconds = measurement.monotonicAfterNanoseconds
        let moved = measurement.offsetNanoseconds &- offsetNanoseconds
        guard abs(moved) > max(Self.stepThresholdNanoseconds, 2 * measurement.uncertaintyNanoseconds) else { return nil }
        previousOffset = (offsetNanoseconds, measurement.monotonicAfterNanoseconds &+ Self.plausibleAgeNanoseconds)
        offsetNanoseconds = measurement.offsetNanoseconds
        stepCount += 1
        return moved
    }

    /// The monotonic time of a wall-clock stamp read at `now` (monotonic): the latest mapping
    /// that is not after `now` (with the offset since the last step, or the one before it for
    /// a stamp taken before the step); `now` itself when every mapping is after it.
    public func monotonicNanoseconds(ofWallNanoseconds stamp: Int64, readAtMonotonicNanoseconds now: Int64) -> Int64 {
        let latest = now &+ Self.futureToleranceNanoseconds
        var best = stamp &- offsetNanoseconds
        if let previous = previousOffset, now < previous.until {
            let before = stamp &- previous.offset
            if before <= latest, best > latest || before > best { best = before }
        }
        return best <= latest ? min(best, now) : now
    }
}
