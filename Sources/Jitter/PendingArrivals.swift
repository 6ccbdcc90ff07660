/// Relative delays of the packets that arrived since the last pull, held until the pull tells
/// how long each of them waited for it. Fixed capacity; when full, the oldest is recorded at
/// once with an average wait.
struct PendingArrivals {
    private static let capacity = 64
    private var relativeDelays = [Double](repeating: 0, count: capacity)
    private var arrivals = [Double](repeating: 0, count: capacity)
    private var count = 0

    mutating func append(relativeDelay: Double, arrivalMilliseconds: Double, to estimator: inout DelayEstimator) {
        if count == Self.capacity {
            estimator.record(relativeDelay: relativeDelays[0], waitMilliseconds: 5, arrivalMilliseconds: arrivals[0])
            for index in 1..<count {
                relativeDelays[index - 1] = relativeDelays[index]
                arrivals[index - 1] = arrivals[index]
            }
            count -= 1
        }
        relativeDelays[count] = relativeDelay
        arrivals[count] = arrivalMilliseconds
        count += 1
    }

    /// Records every pending arrival with its wait until the pull at `nowMilliseconds`.
    mutating func record(at nowMilliseconds: Double, to estimator: inout DelayEstimator) {
        for index in 0..<count {
            estimator.record(
                relativeDelay: relativeDelays[index], waitMilliseconds: max(nowMilliseconds - arrivals[index], 0),
                arrivalMilliseconds: arrivals[index]
            )
        }
        count = 0
    }
}
