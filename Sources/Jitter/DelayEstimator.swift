/// Estimates how much playout delay the network needs, from the relative delay of each packet
/// that actually arrives (the time it took beyond the fastest packet of the recent past).
///
/// Learnt from WebRTC NetEq's delay manager (a forgetting histogram of relative arrival delay,
/// targeting a high quantile), with three changes aimed at its known weaknesses:
/// - A packet that never comes adds nothing: only arrivals are measured, so loss cannot be
///   mistaken for lateness.
/// - A path stall (nothing arrives for a while, then the queued packets arrive back to back) is
///   one event: the first packet of the burst is recorded once, the rest of the burst not at
///   all, so a single spike cannot hold the target up for long; frequent stalls still raise it.
/// - The reference "fastest packet" is the minimum over a sliding window of the last packets,
///   so sender/receiver clock drift moves the reference instead of accumulating as delay.
struct DelayEstimator {
    private let quantile: Double
    private let forgetFactor: Double
    private let minimumMilliseconds: Double
    private let maximumMilliseconds: Double
    private let fixedMilliseconds: Double?
    private var histogram: DelayHistogram
    private var offsets: [Double]
    private var offsetCount = 0
    private var nextOffset = 0
    private var lastArrivalMilliseconds: Double?
    private var inSpike = false
    private(set) var referenceOffsetMilliseconds = 0.0
    private(set) var spikeCount = 0
    private(set) var targetMilliseconds: Double

    /// The stall that makes a spike: nothing arrived for this long and the packet is this late.
    static let spikeMilliseconds = 80.0
    /// Packets closer together than this after a stall belong to its burst.
    static let backToBackMilliseconds = 2.5
    /// The window of packets over which the fastest one is the reference.
    static let referenceWindow = 256

    init(configuration: JitterBufferConfiguration, pullMilliseconds: Double) {
        quantile = min(max(configuration.delayQuantile, 0.5), 0.999)
        forgetFactor = min(max(configuration.histogramForgetFactor, 0.5), 0.99999)
        minimumMilliseconds = max(configuration.minimumDelayMilliseconds, 0)
        maximumMilliseconds = max(configuration.maximumDelayMilliseconds, minimumMilliseconds)
        if case let .fixed(milliseconds) = configuration.delayPolicy {
            fixedMilliseconds = min(max(milliseconds, 0), maximumMilliseconds)
        } else {
            fixedMilliseconds = nil
        }
        histogram = DelayHistogram(bucketMilliseconds: 2, maximumMilliseconds: maximumMilliseconds + 2)
        offsets = [Double](repeating: 0, count: Self.referenceWindow)
        self.pullMilliseconds = pullMilliseconds
        targetMilliseconds = fixedMilliseconds ?? min(max(configuration.initialDelayMilliseconds, minimumMilliseconds), maximumMilliseconds)
    }

    private let pullMilliseconds: Double

    var isFixed: Bool { fixedMilliseconds != nil }

    /// Records one arrival of media at `mediaMilliseconds` (its position on the media timeline)
    /// and returns its relative delay in milliseconds.
    @discardableResult
    mutating func observe(arrivalMilliseconds: Double, mediaMilliseconds: Double) -> Double {
        let offset = arrivalMilliseconds - mediaMilliseconds
        offsets[nextOffset] = offset
        nextOffset = (nextOffset + 1) % offsets.count
        offsetCount = min(offsetCount + 1, offsets.count)
        referenceOffsetMilliseconds = offsets[0..<offsetCount].min() ?? offset
        let relativeDelay = offset - referenceOffsetMilliseconds

        let gap = lastArrivalMilliseconds.map { arrivalMilliseconds - $0 } ?? 0
        lastArrivalMilliseconds = max(lastArrivalMilliseconds ?? arrivalMilliseconds, arrivalMilliseconds)
        let quantileNow = histogram.sampleCount > 0 ? histogram.value(atQuantile: quantile) : targetMilliseconds
        if inSpike, gap < Self.backToBackMilliseconds, relativeDelay > quantileNow {
            return relativeDelay  // the rest of a stall's burst: already accounted for
        }
        inSpike = gap >= Self.spikeMilliseconds && relativeDelay > quantileNow + Self.spikeMilliseconds
        if inSpike { spikeCount += 1 }
        histogram.add(relativeDelay, forgetFactor: forgetFactor)
        updateTarget()
        return relativeDelay
    }

    /// Forgets the reference (a new stream on possibly another clock); keeps what was learnt of
    /// the network.
    mutating func resetReference() {
        offsetCount = 0
        nextOffset = 0
        lastArrivalMilliseconds = nil
        inSpike = false
    }

    private mutating func updateTarget() {
        if let fixedMilliseconds {
            targetMilliseconds = fixedMilliseconds
            return
        }
        // Half a pull on top: a packet arrives on average half a pull before it is looked for.
        let needed = histogram.value(atQuantile: quantile) + pullMilliseconds / 2
        targetMilliseconds = min(max(needed, minimumMilliseconds), maximumMilliseconds)
    }
}
