import Jitter

/// Playout delays in 1 ms bins over a fixed range, for the mean and percentiles of a stream of
/// any length in fixed memory. Values outside the range count in its first or last bin (the
/// mean stays exact).
struct PlayoutDelayHistogram {
    /// The lowest delay with a bin of its own, in milliseconds.
    let lowestMilliseconds: Double
    private var bins: [UInt32]
    private(set) var count = 0
    private var sum = 0.0

    /// A histogram of `binCount` 1 ms bins from `lowestMilliseconds`.
    init(lowestMilliseconds: Double, binCount: Int) {
        self.lowestMilliseconds = lowestMilliseconds
        bins = [UInt32](repeating: 0, count: max(binCount, 1))
    }

    mutating func record(_ milliseconds: Double) {
        guard milliseconds.isFinite else { return }
        // Within the bins the offset is not negative: its truncation is its floor.
        let offset = milliseconds - lowestMilliseconds
        let index = offset < 0 ? 0 : offset >= Double(bins.count) ? bins.count - 1 : Int(offset)
        bins[index] &+= 1
        count += 1
        sum += milliseconds
    }

    /// The mean of the recorded delays (0 when none).
    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    /// The delay below which `fraction` of the recorded ones fall, as the middle of its bin
    /// (0 when none): the histogram's counterpart of `sorted[Int(fraction × count)]`.
    func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = min(Int(fraction * Double(count)), count - 1)
        var below = 0
        for (index, binCount) in bins.enumerated() {
            below += Int(binCount)
            if below > rank { return lowestMilliseconds + Double(index) + 0.5 }
        }
        return lowestMilliseconds + Double(bins.count) - 0.5
    }
}
