/// Order statistics over the per-run samples of a benchmark.
public enum Statistics {
    /// The middle value of `samples`: the mean of the two middle values when the count is even;
    /// `nil` when there are none.
    public static func median(_ samples: [Double]) -> Double? {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        if sorted.count.isMultiple(of: 2) {
            return (sorted[middle - 1] + sorted[middle]) / 2
        }
        return sorted[middle]
    }

    /// The `percent`-th percentile of `samples` by the nearest-rank method: the smallest sample
    /// such that at least `percent` % of the samples are less than or equal to it. Always one of
    /// the samples; `nil` when there are none. `percent` is clamped to 0...100.
    public static func percentile(_ percent: Double, of samples: [Double]) -> Double? {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return nil }
        let fraction = min(max(percent, 0), 100) / 100
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
