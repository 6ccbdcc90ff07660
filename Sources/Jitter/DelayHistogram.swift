/// A histogram of relative packet delays that forgets exponentially: each new sample keeps a
/// fraction `forgetFactor` of the weight of everything before it (total weight stays 1).
/// Storage is fixed at creation.
///
/// The buckets above the highest one any sample has reached hold exactly zero, so every walk
/// stops there: what it would find beyond is known without looking (for the least-cost search,
/// from ``DelayCostTable``). The results are those of a walk over every bucket, to the bit.
struct DelayHistogram {
    let bucketMilliseconds: Double
    private var weights: [Double]
    private(set) var sampleCount = 0
    /// The highest bucket a sample has reached (−1 before the first): all above are zero.
    private var highestUsedBucket = -1

    init(bucketMilliseconds: Double, maximumMilliseconds: Double) {
        self.bucketMilliseconds = bucketMilliseconds
        weights = [Double](repeating: 0, count: max(Int(maximumMilliseconds / bucketMilliseconds), 1))
    }

    /// Adds `milliseconds`. Until the histogram has seen `1 / (1 − forgetFactor)` samples, all
    /// samples weigh equally (a running mean), so the first few do not make a noisy start.
    mutating func add(_ milliseconds: Double, forgetFactor: Double) {
        let forget = min(forgetFactor, Double(sampleCount) / Double(sampleCount + 1))
        // Zero times the factor stays zero: the buckets above the highest are left alone.
        for bucket in 0..<(highestUsedBucket + 1) { weights[bucket] *= forget }
        let last = Double(weights.count - 1)
        let bucket = milliseconds.isFinite ? Int(min(max(milliseconds / bucketMilliseconds, 0), last)) : Int(last)
        weights[bucket] += 1 - forget
        highestUsedBucket = max(highestUsedBucket, bucket)
        sampleCount += 1
    }

    /// The smallest delay (a bucket's upper edge) at or below which `quantile` of the weight lies.
    func value(atQuantile quantile: Double) -> Double {
        var cumulative = 0.0
        for bucket in 0..<(highestUsedBucket + 1) {
            cumulative += weights[bucket]
            if cumulative >= quantile { return Double(bucket + 1) * bucketMilliseconds }
        }
        // Zero weights above: the sum stays where it is.
        if highestUsedBucket + 1 < weights.count, cumulative >= quantile {
            return Double(highestUsedBucket + 2) * bucketMilliseconds
        }
        return Double(weights.count) * bucketMilliseconds
    }

    /// The weight of the buckets that lie wholly above `milliseconds` (a sample there needed
    /// more than that).
    func weight(above milliseconds: Double) -> Double {
        guard milliseconds.isFinite else { return milliseconds < 0 ? 1 : 0 }
        let first = max(Int((milliseconds / bucketMilliseconds).rounded(.up)), 0)
        var sum = 0.0
        for bucket in stride(from: first, through: highestUsedBucket, by: 1) { sum += weights[bucket] }
        return sum
    }

    /// The number of buckets.
    var bucketCount: Int { weights.count }

    /// The delay (a bucket's upper edge) that costs a conversation least: the delay's own cost
    /// (`costs.delayCosts[bucket]`, one per bucket) plus the effective equipment impairment of
    /// the loss a listener would have, G.107 equation 7-29 with Ie 0 and the table's packet-loss
    /// robustness (Bpl): the network's loss (`networkLossFraction`) and the arrivals that would
    /// come later than the bucket (the weight above it). Ie,eff is concave in the loss, so late
    /// loss costs less on a network that already loses packets. The lower delay on a tie.
    func leastCostValue(costs: DelayCostTable, networkLossFraction: Double = 0) -> Double {
        let network = min(max(networkLossFraction, 0), 1)
        // Above the highest used bucket nothing comes later: every bucket there bears the same
        // loss term, so the table's pick with nothing late is the pick there.
        var (best, bestCost) = costs.pickWithNothingLate(from: highestUsedBucket + 1)
        bestCost += costs.lossCost(lossPercent: 100 * network)
        var above = 0.0
        for bucket in stride(from: min(highestUsedBucket, weights.count - 1), through: 0, by: -1) {
            let cost = costs.delayCosts[bucket] + costs.lossCost(lossPercent: 100 * (network + (1 - network) * max(above, 0)))
            if cost <= bestCost {
                best = bucket
                bestCost = cost
            }
            above += weights[bucket]
        }
        return Double(best + 1) * bucketMilliseconds
    }
}

/// The conversational price of each delay bucket of a ``DelayHistogram``: the delay's own cost
/// (Id) plus, through G.107 equation 7-29 with Ie 0 and the robustness Bpl, that of the packets
/// that would come later. Made once per change of the delay outside the buffer (it allocates).
struct DelayCostTable {
    /// The delay's own cost, one per bucket.
    let delayCosts: [Double]
    /// Bpl, the robustness the late packets are priced with.
    let lossRobustness: Double
    /// For each bucket, the pick of a search from the top down to it when no packet is late
    /// (the lower bucket on a tie), with its cost; one more entry for "no bucket".
    private let picks: [(bucket: Int, cost: Double)]

    init(delayCosts: [Double], lossRobustness: Double) {
        self.delayCosts = delayCosts
        self.lossRobustness = lossRobustness
        var picks = [(bucket: Int, cost: Double)](repeating: (delayCosts.count - 1, .infinity), count: delayCosts.count + 1)
        var best = (bucket: delayCosts.count - 1, cost: Double.infinity)
        for bucket in stride(from: delayCosts.count - 1, through: 0, by: -1) {
            // With nothing late the loss term is 0: the delay's own cost decides.
            let cost = delayCosts[bucket]
            if cost <= best.cost { best = (bucket, cost) }
            picks[bucket] = best
        }
        self.picks = picks
    }

    /// Ie,eff with Ie 0 (G.107 equation 7-29) when `lossPercent` of the packets are lost or late.
    @inline(__always)
    func lossCost(lossPercent: Double) -> Double {
        95 * lossPercent / (lossPercent + lossRobustness)
    }

    /// The pick and its cost of a search over the buckets from `bucket` up when none is late.
    func pickWithNothingLate(from bucket: Int) -> (Int, Double) {
        let entry = picks[min(max(bucket, 0), picks.count - 1)]
        return (entry.bucket, entry.cost)
    }
}
