/// The 10 ms periods a session's timer skipped after its thread stalled, as a pure value: it
/// counts the periods the ticks served since the first one and compares them with the periods
/// the monotonic clock says have passed. After a stall the timer (the session's own, or the
/// ``TickWheel`` of a ``MediaRuntime``) catches up at most a lag of `maximumLagNanoseconds` in a
/// burst and skips the rest: what the ticks are behind beyond that catch-up was skipped, media
/// time the sender lived through but never captured (see ``SendTimestamps/skip(lostCaptureFrames:)``).
///
/// The counts are absolute (since the first tick), so rounding never adds up to a drift, and
/// never ahead of the clock. A wheel of ticks of several periods may catch a leg up by one tick
/// less than the lag allows: the ticks then stay behind by that tick (20 ms at a runtime's
/// default), which the next stall counts. Time is given, never read.
struct SkippedPeriods {
    /// The audio period.
    let periodNanoseconds: Int64
    /// The periods the timer still catches up in a burst after a stall.
    let catchUpPeriods: Int64
    /// When the first tick's periods began; nil until the first tick.
    private var start: Int64?
    /// Periods served or counted as skipped since `start`.
    private var accounted: Int64 = 0

    /// Counts `periodNanoseconds` periods behind a timer that catches up at most
    /// `maximumLagNanoseconds` after a stall.
    init(periodNanoseconds: Int64, maximumLagNanoseconds: Int64) {
        self.periodNanoseconds = max(1, periodNanoseconds)
        catchUpPeriods = max(0, maximumLagNanoseconds) / self.periodNanoseconds
    }

    /// Starts again from the next tick (a new endpoint).
    mutating func restart() {
        start = nil
        accounted = 0
    }

    /// A tick at `now` served `periods` periods, the last ending now; returns how many periods
    /// before them the timer skipped and will not catch up (zero unless the ticks fell behind
    /// the clock by more than the catch-up). Each skipped period is returned once.
    mutating func tick(periods: Int, now: Int64) -> Int {
        let periods = Int64(max(1, periods))
        guard let start else {
            start = now - periods * periodNanoseconds
            accounted = periods
            return 0
        }
        accounted += periods
        // In whole ticks: a late tick serves the periods of its due time, up to a tick before now.
        let behind = (now - start) / (periods * periodNanoseconds) * periods - accounted
        let skipped = max(0, behind - catchUpPeriods)
        accounted += skipped
        return Int(skipped)
    }
}
