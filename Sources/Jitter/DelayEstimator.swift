import QualityMetrics

/// Estimates how much playout delay the network needs, from the relative delay of each packet
/// that actually arrives (the time it took beyond the fastest packet of the recent past).
///
/// Learnt from WebRTC NetEq's delay manager (a forgetting histogram of relative arrival delay,
/// targeting a high quantile), with three changes aimed at its known weaknesses:
/// - A packet that never comes adds nothing: only arrivals are measured, so loss cannot be
///   mistaken for lateness.
/// - A path stall (nothing arrives for a while, then the queued packets arrive back to back) is
///   one event: the first, very late packet of the burst is recorded once, the late packets
///   right behind it not at all, so a single spike cannot hold the target up; frequent stalls
///   still raise it.
/// - The reference "fastest packet" is the minimum over a sliding window of the last packets,
///   so sender/receiver clock drift moves the reference instead of accumulating as delay.
/// - The target follows the quantile up at once but down only slowly (by
///   ``JitterBufferConfiguration/targetDecayMillisecondsPerSecond``, and not at all while the
///   network is still being learnt), so it stays put on a steady network instead of wandering
///   with every sample of a heavy tail; until the first 25 packets have arrived the initial
///   delay is a floor.
struct DelayEstimator {
    private let quantile: Double
    /// With the conversational target: Id of G.107 at the base delay plus each bucket's upper
    /// edge, one per histogram bucket, priced with ``lossRobustness`` (made at creation and when
    /// the delay outside the buffer changes).
    private var delayCosts: DelayCostTable?
    /// With the conversational target: the mouth-to-ear delay outside the buffer, milliseconds.
    private(set) var outsideMilliseconds: Double?
    private let forgetFactor: Double
    private let minimumMilliseconds: Double
    private let maximumMilliseconds: Double
    private let fixedMilliseconds: Double?
    private var histogram: DelayHistogram
    private var offsets: SlidingMinimum
    private var lastArrivalMilliseconds: Double?
    private var inSpike = false
    private(set) var referenceOffsetMilliseconds = 0.0
    private(set) var spikeCount = 0
    private(set) var targetMilliseconds: Double
    /// The highest recent quantile, falling by `decayPerMillisecond`: what the target follows.
    private var heldMilliseconds = 0.0
    /// What the network needed at the last arrival (the quantile, or the least-cost delay).
    private var neededMilliseconds = 0.0
    private let decayPerMillisecond: Double
    /// The initial delay: the target's floor until ``startupPackets`` have arrived.
    let initialMilliseconds: Double
    /// The share of packets the network lost, recent packets weighing most (by the forget factor).
    private(set) var networkLossFraction = 0.0

    /// Until this many packets have arrived, the target is at least the initial delay.
    static let startupPackets = 25
    /// While fewer than this many packets have arrived (5 s of 20 ms packets), the network's
    /// jitter is still being learnt (``isLearning``).
    static let learningPackets = 250

    /// A packet this much later than the target quantile starts a spike.
    static let spikeMilliseconds = 80.0
    /// Late packets closer together than this after a spike's first belong to its burst.
    static let backToBackMilliseconds = 2.5
    /// The window of packets over which the fastest one is the reference.
    static let referenceWindow = 256

    init(configuration: JitterBufferConfiguration) {
        /// A setting limited to `range`, or `fallback` when it is not a number.
        func limited(_ value: Double, _ range: ClosedRange<Double>, fallback: Double) -> Double {
            value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : fallback
        }
        quantile = limited(configuration.delayQuantile, 0.5...0.999, fallback: 0.97)
        forgetFactor = limited(configuration.histogramForgetFactor, 0.5...0.99999, fallback: 0.997)
        minimumMilliseconds = limited(configuration.minimumDelayMilliseconds, 0...10_000, fallback: 0)
        maximumMilliseconds = limited(configuration.maximumDelayMilliseconds, minimumMilliseconds...10_000, fallback: 1000)
        decayPerMillisecond = limited(configuration.targetDecayMillisecondsPerSecond, 0...1000, fallback: 1) / 1000
        if case let .fixed(milliseconds) = configuration.delayPolicy {
            fixedMilliseconds = limited(milliseconds, 0...maximumMilliseconds, fallback: 0)
        } else {
            fixedMilliseconds = nil
        }
        let histogram = DelayHistogram(bucketMilliseconds: 2, maximumMilliseconds: maximumMilliseconds + 2)
        self.histogram = histogram
        outsideMilliseconds = configuration.conversationalBaseDelayMilliseconds.map { limited($0, 0...10_000, fallback: 60) }
        delayCosts = outsideMilliseconds.map { Self.delayCosts(outsideMilliseconds: $0, histogram: histogram) }
        offsets = SlidingMinimum(window: Self.referenceWindow)
        initialMilliseconds =
            fixedMilliseconds ?? limited(configuration.initialDelayMilliseconds, minimumMilliseconds...maximumMilliseconds, fallback: 60)
        targetMilliseconds = initialMilliseconds
    }

    var isFixed: Bool { fixedMilliseconds != nil }

    /// The resolution of the target: the width of the histogram's buckets, milliseconds.
    var bucketMilliseconds: Double { histogram.bucketMilliseconds }

    /// Whether the initial delay is still the target's floor.
    var isStartingUp: Bool { histogram.sampleCount < Self.startupPackets }

    /// Whether the network's jitter is still being learnt (the first ``learningPackets``).
    var isLearning: Bool { histogram.sampleCount < Self.learningPackets }

    /// Measures one arrival of media at `mediaMilliseconds` (its position on the media
    /// timeline): moves the reference window and returns the packet's relative delay in
    /// milliseconds. Call ``record(relativeDelay:waitMilliseconds:arrivalMilliseconds:)`` at the
    /// next pull.
    mutating func relativeDelay(arrivalMilliseconds: Double, mediaMilliseconds: Double) -> Double {
        let offset = arrivalMilliseconds - mediaMilliseconds
        referenceOffsetMilliseconds = offsets.append(offset)
        return offset - referenceOffsetMilliseconds
    }

    /// Learns from one arrival: the playout delay it needed is its relative delay plus
    /// `waitMilliseconds`, the time from its arrival to the next pull (a packet is in time when
    /// the playout delay at the pull that needs it is at least that). A stall's burst is
    /// recorded once.
    mutating func record(relativeDelay: Double, waitMilliseconds: Double, arrivalMilliseconds: Double) {
        let gap = lastArrivalMilliseconds.map { arrivalMilliseconds - $0 } ?? 0
        lastArrivalMilliseconds = max(lastArrivalMilliseconds ?? arrivalMilliseconds, arrivalMilliseconds)
        let quantileNow = histogram.value(atQuantile: quantile)
        if inSpike, gap < Self.backToBackMilliseconds, relativeDelay > quantileNow {
            return  // the rest of a stall's burst: already accounted for
        }
        inSpike = relativeDelay > quantileNow + Self.spikeMilliseconds
        if inSpike { spikeCount += 1 }
        histogram.add(relativeDelay + waitMilliseconds, forgetFactor: forgetFactor)
        updateTarget(gapMilliseconds: gap)
    }

    /// How far the delay distribution reaches beyond what the network needs: the 99.5th
    /// percentile minus the delay the target follows, in milliseconds. Late packets are
    /// plausible within that reach.
    var tailMilliseconds: Double {
        max(histogram.value(atQuantile: 0.995) - neededMilliseconds, 0)
    }

    /// The share of recent arrivals that needed more playout delay than `milliseconds`: the
    /// packets a playout delay that low would play late.
    func lateFraction(atDelayMilliseconds milliseconds: Double) -> Double {
        histogram.weight(above: milliseconds)
    }

    /// Counts an arrival that came `missing` sequence numbers after the highest before it (0:
    /// the next one), or, with `missing` −1, one that fills an earlier gap.
    mutating func recordSequence(missing: Int) {
        let keep = forgetFactor
        if missing < 0 {
            networkLossFraction = max(networkLossFraction - (1 - keep), 0)
            return
        }
        for _ in 0..<min(missing, 100) { networkLossFraction = networkLossFraction * keep + (1 - keep) }
        networkLossFraction *= keep
    }

    /// Forgets the reference (a new stream on possibly another clock); keeps what was learnt of
    /// the network.
    mutating func resetReference() {
        offsets.removeAll()
        lastArrivalMilliseconds = nil
        inSpike = false
    }

    /// The packet-loss robustness (Bpl) the conversational target prices lost and late packets
    /// with. G.113 Appendix I gives 25.1 for G.711 with concealment; speech heard through this
    /// buffer (PESQ, R_conv) loses less to late packets than that predicts: tuned on the
    /// `us-male` recording over heavy-jitter, moderate-jitter, spikes and bursty-loss, R_conv
    /// stays within 0.6 from Bpl 25.1 to 80 while the delay on heavy-jitter falls by 18 ms;
    /// judged on `gb-female` and the babble mix (+0.8, −0.5, 0.0 and +0.7, +0.3, +0.2 R on
    /// heavy-jitter, moderate-jitter and spikes), and in `mediabench demo` over heavy-jitter
    /// (mouth-to-ear 173–191 ms against 218–223 ms at Bpl 25.1).
    static let lossRobustness = 80.0

    /// Id of G.107 at `outsideMilliseconds` plus each bucket's upper edge, priced with
    /// ``lossRobustness`` (from the process's ``DelayCostCache``: buffers asking for the same
    /// delay share one table).
    private static func delayCosts(outsideMilliseconds: Double, histogram: DelayHistogram) -> DelayCostTable {
        let key = DelayCostCache.Key(
            outsideMilliseconds: outsideMilliseconds, bucketCount: histogram.bucketCount,
            bucketMilliseconds: histogram.bucketMilliseconds)
        return DelayCostCache.shared.table(for: key) { key in
            let costs = (0..<key.bucketCount).map { bucket in
                let delay = key.outsideMilliseconds + Double(bucket + 1) * key.bucketMilliseconds
                return (try? ConversationalRating.delayImpairment(mouthToEarMilliseconds: delay)) ?? .infinity
            }
            return DelayCostTable(delayCosts: costs, lossRobustness: lossRobustness)
        }
    }

    /// Tells a conversational target how much mouth-to-ear delay there is outside the buffer
    /// (half the RTCP round trip plus packetisation, say); a quantile target ignores it.
    /// Allocates the new delay costs: call it when the figure changes, not per packet.
    mutating func updateDelayOutsideBuffer(milliseconds: Double) {
        guard delayCosts != nil, milliseconds.isFinite else { return }
        let outside = min(max(milliseconds, 0), 10_000)
        outsideMilliseconds = outside
        delayCosts = Self.delayCosts(outsideMilliseconds: outside, histogram: histogram)
    }

    private mutating func updateTarget(gapMilliseconds: Double) {
        if let fixedMilliseconds {
            targetMilliseconds = fixedMilliseconds
            return
        }
        let needed: Double
        if let delayCosts {
            needed = histogram.leastCostValue(costs: delayCosts, networkLossFraction: networkLossFraction)
        } else {
            needed = histogram.value(atQuantile: quantile)
        }
        neededMilliseconds = needed
        // Up at once, down slowly: a heavy tail shows itself only now and then, and every
        // move of the delay is a change a listener may hear. Not down at all while the network
        // is still being learnt: a few seconds of arrivals that need less are no evidence yet
        // that the call does (on `heavy-jitter` the decay took the target from 104 to 66 ms in
        // the first 5 s, and the network soon needed 86 ms again).
        let decay = isLearning ? 0 : max(gapMilliseconds, 0) * decayPerMillisecond
        heldMilliseconds = max(needed, heldMilliseconds - decay)
        // Until the first packets have shown the network, the initial delay is a floor.
        let wanted = isStartingUp ? max(heldMilliseconds, initialMilliseconds) : heldMilliseconds
        targetMilliseconds = min(max(wanted, minimumMilliseconds), maximumMilliseconds)
    }
}
