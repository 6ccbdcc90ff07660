/// A histogram of relative packet delays that forgets exponentially: each new sample keeps a
/// fraction `forgetFactor` of the weight of everything before it (total weight stays 1).
/// Storage is fixed at creation. Buckets above the highest one ever given weight weigh
/// exactly 0, so the loops stop there: a packet costs the delays seen, not the whole range.
struct DelayHistogram {
    let bucketMilliseconds: Double
    private var weights: [Double]
    private(set) var sampleCount = 0
    /// The highest bucket a sample ever went into (0 before the first): all above weigh 0.
    private var highestUsedBucket = 0

    init(bucketMilliseconds: Double, maximumMilliseconds: Double) {
        self.bucketMilliseconds = bucketMilliseconds
        weights = [Double](repeating: 0, count: max(Int(maximumMilliseconds / bucketMilliseconds), 1))
    }

    /// Adds `milliseconds`. Until the histogram has seen `1 / (1 − forgetFactor)` samples, all
    /// samples weigh equally (a running mean), so the first few do not make a noisy start.
    mutating func add(_ milliseconds: Double, forgetFactor: Double) {
        let forget = min(forgetFactor, Double(sampleCount) / Double(sampleCount + 1))
        for bucket in 0...highestUsedBucket { weights[bucket] *= forget }
        let last = Double(weights.count - 1)
        let bucket = milliseconds.isFinite ? Int(min(max(milliseconds / bucketMilliseconds, 0), last)) : Int(last)
        highestUsedBucket = max(highestUsedBucket, bucket)
        weights[bucket] += 1 - forget
        sampleCount += 1
    }

    /// The smallest delay (a bucket's upper edge) at or below which `quantile` of the weight lies.
    func value(atQuantile quantile: Double) -> Double {
        var cumulative = 0.0
        for bucket in 0...highestUsedBucket {
            cumulative += weights[bucket]
            if cumulative >= quantile { return Double(bucket + 1) * bucketMilliseconds }
        }
        return Double(weights.count) * bucketMilliseconds
    }

    /// The number of buckets.
    var bucketCount: Int { weights.count }

    /// The delay (a bucket's upper edge) that costs a conversation least: the delay's own cost
    /// (`costs`, one per bucket) plus the effective equipment impairment of the packets that
    /// would come later (the weight above the bucket), G.107 equation 7-29 with Ie 0 and the
    /// packet-loss robustness `lossRobustness` (Bpl); the lower delay on a tie. No weight lies
    /// above the highest used bucket, so from there up the delay's own cost alone decides:
    /// ``BucketCosts/cheapestAtOrAbove`` answers for those buckets, and only the ones below are scanned.
    func leastCostValue(costs: BucketCosts, lossRobustness: Double) -> Double {
        var best = costs.cheapestAtOrAbove[highestUsedBucket]
        var bestCost = costs.costs[best]
        var above = weights[highestUsedBucket]
        for bucket in stride(from: highestUsedBucket - 1, through: 0, by: -1) {
            let latePercent = 100 * max(above, 0)
            let cost = costs.costs[bucket] + 95 * latePercent / (latePercent + lossRobustness)
            if cost <= bestCost {
                best = bucket
                bestCost = cost
            }
            above += weights[bucket]
        }
        return Double(best + 1) * bucketMilliseconds
    }
}
