/// Sums and differences of counters that saturate instead of trapping: the monitor's inputs come
/// from other components, and a wild counter must give a wild figure, never a crash.
extension Int64 {
    /// `self + other`, held at `.max` / `.min` on overflow.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self − other`, held at `.max` / `.min` on overflow.
    func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// A count from another component: negative values are taken as 0.
    init(count: Int) {
        self = Int64(Swift.max(count, 0))
    }
}

extension Double {
    /// This value when it is finite and positive, else 0: figures from the caller that are
    /// negative, infinite or NaN must not reach the report (JSON cannot hold NaN).
    var finiteOrZero: Double { isFinite && self > 0 ? self : 0 }
}
