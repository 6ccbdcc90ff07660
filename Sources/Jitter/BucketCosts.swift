/// What each delay bucket of a ``DelayHistogram`` costs a conversation (one value per bucket),
/// with, for every bucket, the cheapest bucket at or above it (the lowest on a tie), found once
/// when the costs are set so that ``DelayHistogram/leastCostValue(costs:lossRobustness:)`` need
/// not scan the buckets that no delay has reached.
struct BucketCosts {
    /// The cost of each bucket.
    let costs: [Double]
    /// For each bucket, the cheapest bucket at or above it, as a scan from the top bucket down
    /// keeping the lower one on a tie finds it.
    let cheapestAtOrAbove: [Int]

    /// Costs `costs`, one per bucket.
    init(_ costs: [Double]) {
        self.costs = costs
        var cheapest = [Int](repeating: 0, count: costs.count)
        var best = costs.count - 1
        var bestCost = Double.infinity
        for bucket in stride(from: costs.count - 1, through: 0, by: -1) {
            if costs[bucket] <= bestCost {
                best = bucket
                bestCost = costs[bucket]
            }
            cheapest[bucket] = best
        }
        cheapestAtOrAbove = cheapest
    }
}
