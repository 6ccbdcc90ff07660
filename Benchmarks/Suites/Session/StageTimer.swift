import Glibc

/// Attributes elapsed time to stages as a loop runs through them: ``lap(_:)`` charges the time
/// since the previous mark to a stage, so consecutive stages share one clock read. The cost of
/// that read, measured once, is taken off every lap.
struct StageTimer {
    /// Nanoseconds charged to each stage so far, indexed by ``CallStage/rawValue``.
    private(set) var nanoseconds = [Double](repeating: 0, count: CallStage.allCases.count)
    private let clockReadNanoseconds: Double
    private var mark: Int64 = 0

    /// A timer with every stage at zero; measures what one clock read costs here.
    init() {
        clockReadNanoseconds = Self.measureClockRead()
    }

    /// Starts timing from now (after work that belongs to no stage).
    mutating func restart() {
        mark = Self.now()
    }

    /// Charges the time since the last mark to `stage` and sets the mark to now.
    mutating func lap(_ stage: CallStage) {
        let now = Self.now()
        nanoseconds[stage.rawValue] += max(0, Double(now &- mark) - clockReadNanoseconds)
        mark = now
    }

    /// Sets every stage back to zero.
    mutating func clear() {
        for index in nanoseconds.indices { nanoseconds[index] = 0 }
    }

    /// Now on CLOCK_MONOTONIC, in nanoseconds.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// The cheapest average cost of one clock read over a few batches of back-to-back reads.
    private static func measureClockRead() -> Double {
        let reads = 10_000
        var cheapest = Double.infinity
        for _ in 0..<5 {
            let start = now()
            var last = start
            for _ in 0..<reads { last = now() }
            cheapest = min(cheapest, Double(last &- start) / Double(reads))
        }
        return cheapest
    }
}
