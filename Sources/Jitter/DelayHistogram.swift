/// A histogram of relative packet delays that forgets exponentially: each new sample keeps a
/// fraction `forgetFactor` of the weight of everything before it (total weight stays 1).
/// Storage is fixed at creation.
struct DelayHistogram {
    let bucketMilliseconds: Double
    private var weights: [Double]
    private(set) var sampleCount = 0

    init(bucketMilliseconds: Double, maximumMilliseconds: Double) {
        self.bucketMilliseconds = bucketMilliseconds
        weights = [Double](repeating: 0, count: max(Int(maximumMilliseconds / bucketMilliseconds), 1))
    }

    /// Adds `milliseconds`. Until the histogram has seen `1 / (1 − forgetFactor)` samples, all
    /// samples weigh equally (a running mean), so the first few do not make a noisy start.
    mutating func add(_ milliseconds: Double, forgetFactor: Double) {
        let forget = min(forgetFactor, Double(sampleCount) / Double(sampleCount + 1))
        for bucket in weights.indices { weights[bucket] *= forget }
        let last = Double(weights.count - 1)
        let bucket = milliseconds.isFinite ? Int(min(max(milliseconds / bucketMilliseconds, 0), last)) : Int(last)
        weights[bucket] += 1 - forget
        sampleCount += 1
    }

    /// The smallest delay (a bucket's upper edge) at or below which `quantile` of the weight lies.
    func value(atQuantile quantile: Double) -> Double {
        var cumulative = 0.0
        for bucket in weights.indices {
            cumulative += weights[bucket]
            if cumulative >= quantile { return Double(bucket + 1) * bucketMilliseconds }
        }
        return Double(weights.count) * bucketMilliseconds
    }

    /// The number of buckets.
    var bucketCount: Int { weights.count }

    /// The delay (a bucket's upper edge) that costs a conversation least: the delay's own cost
    /// (`delayCostOfBucket[bucket]`, one per bucket) plus the effective equipment impairment of
    /// the loss a listener would have, G.107 equation 7-29 with Ie 0 and the packet-loss
    /// robustness `lossRobustness` (Bpl): the network's loss (`networkLossFraction`) and the
    /// arrivals that would come later than the bucket (the weight above it). Ie,eff is concave
    /// in the loss, so late loss costs less on a network that already loses packets. The lower
    /// delay on a tie.
    func leastCostValue(delayCostOfBucket: [Double], lossRobustness: Double, networkLossFraction: Double = 0) -> Double {
        var best = weights.count - 1
        var bestCost = Double.infinity
        var above = 0.0
        let network = min(max(networkLossFraction, 0), 1)
        for bucket in stride(from: weights.count - 1, through: 0, by: -1) {
            let lossPercent = 100 * (network + (1 - network) * max(above, 0))
            let cost = delayCostOfBucket[bucket] + 95 * lossPercent / (lossPercent + lossRobustness)
            if cost <= bestCost {
                best = bucket
                bestCost = cost
            }
            above += weights[bucket]
        }
        return Double(best + 1) * bucketMilliseconds
    }
}
