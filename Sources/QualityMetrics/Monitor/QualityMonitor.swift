public import RTP

/// The live call-quality monitor of one received stream: a deterministic state machine that
/// takes the session's figures as they change and makes a ``QualityReport`` once per interval.
///
/// Time is an input: nothing here reads a clock, sleeps or locks. ``LiveQualityMonitor`` wraps
/// it for use from several threads and delivers the reports as an `AsyncStream`.
///
/// Feeding it:
/// - ``recordArrival(_:)`` with the RFC 3550 counters after each received packet: the loss
///   counts, and the packet fates for the RFC 3611 burst/gap metrics and the E-model's BurstR
///   (or ``update(reception:)`` with sampled counters plus ``record(_:)`` with each expected
///   packet's fate, in sequence order);
/// - ``update(playout:)`` with the jitter buffer's figures;
/// - ``recordSentTimestamp(_:at:)`` for each SR (or XR receiver reference time) we send, and
///   ``recordRemoteReport(_:arrival:)`` / ``recordRemoteReferenceReply(_:arrival:)`` /
///   ``recordRemoteMetrics(_:)`` for what the far end sends about our stream;
/// - then ``makeReport(now:)`` every ``Configuration/reportInterval``.
///
/// How a report rates the call: the E-model (``EModel/evaluate(_:)``) from
/// ``Configuration/parameters`` with the codec's Ie and Bpl, Ppl = the effective loss (network
/// loss plus late and discarded packets) over the last ``Configuration/ratingWindowIntervals``
/// intervals, BurstR = the two-state Markov fit of the packet fates over the same window, and
/// Ta = the one-way latency estimate (half the fastest of the latest round trips + jitter-buffer
/// delay + codec delay + packetisation; the buffer's delay counts from the fastest packet, so it
/// holds the network's queueing, which half the latest RTT would count a second time).
/// The window smooths the indicator: with 50 packets a second, one lost packet is 2 % of an
/// interval. An interval in which nothing was expected (silence suppression, or a stall not
/// yet ended by a later packet) reports 0 % loss; the packets of a stall count as lost in the
/// interval in which the stream resumes.
public struct QualityMonitor: Sendable {
    /// How often to report and how to rate.
    public struct Configuration: Sendable, Hashable {
        /// How often the session should call ``QualityMonitor/makeReport(now:)``. Default 1 s.
        public var reportInterval = MediaTime(seconds: 1)
        /// How many of the latest intervals the E-model's Ppl and BurstR are taken over
        /// (taken into 1...3600). Default 5.
        public var ratingWindowIntervals = 5
        /// The E-model inputs other than Ie, Bpl, Ppl, BurstR and Ta. Default: G.107's defaults.
        public var parameters = EModelParameters()
        /// Gmin of the RFC 3611 burst/gap model. Default 16.
        public var minimumGap: UInt8 = 16

        /// The defaults.
        public init() {}
    }

    /// The configuration given at the start.
    public let configuration: Configuration
    /// The codec of the stream; set it when the session switches codecs.
    public var codec: MonitoredCodec

    private let start: MediaTime
    private var lastReportTime: MediaTime
    private var reception = ReceptionCounters.zero
    private var playout = PlayoutFigures.zero
    /// Counts banked from before a restart of the reception statistics or of the playout.
    private var banked = MonitorTotals()
    private var burstGap: BurstGapCounter
    private var transitions = BurstRatio.TransitionCounts()
    private var roundTripClock = RoundTripClock()
    private var roundTrip: MediaTime?
    private var fastestRoundTrip = FastestRecentRoundTrip()
    private var remote: RemoteReception?
    private var lastReportTotals = MonitorTotals()
    /// Totals at the latest reports, oldest overwritten first (a ring of the window's length).
    private var history: [MonitorTotals]
    private var reportsMade = 0

    /// A monitor of a stream in `codec`, started at `start` on the caller's clock.
    public init(codec: MonitoredCodec, start: MediaTime, configuration: Configuration = Configuration()) {
        var configuration = configuration
        configuration.ratingWindowIntervals = min(max(configuration.ratingWindowIntervals, 1), 3600)
        self.configuration = configuration
        self.codec = codec
        self.start = start
        lastReportTime = start
        burstGap = BurstGapCounter(minimumGap: configuration.minimumGap)
        history = Array(repeating: MonitorTotals(), count: configuration.ratingWindowIntervals)
    }

    /// When the next report is due: one ``Configuration/reportInterval`` after the last.
    public var nextReportTime: MediaTime { lastReportTime + configuration.reportInterval }

    // MARK: Feeding

    /// Takes the reception counters as they stand. When a counter went backwards (the
    /// statistics restarted on a new source or a sequence jump), what the old counters held is
    /// kept and the new ones count on top.
    public mutating func update(reception counters: ReceptionCounters) {
        if counters.expectedPackets < reception.expectedPackets || counters.receivedPackets < reception.receivedPackets {
            banked.addReception(reception)
        }
        reception = counters
    }

    /// Takes the reception counters right after RTP's `ReceptionStatistics` counted one packet,
    /// and records the fates that packet implies for the burst/gap model: `.lost` for each
    /// sequence number it skipped, then `.received` for itself. A reordered or duplicate packet
    /// (nothing more expected) records nothing, so a reordered packet stays counted as lost in
    /// the burst model, as if it came too late to play; a packet still on probation records
    /// nothing either. Allocates nothing.
    ///
    /// Call it for every received packet, in arrival order; use ``update(reception:)`` instead
    /// when the counters are only sampled.
    public mutating func recordArrival(_ counters: ReceptionCounters) {
        let previous = reception
        update(reception: counters)
        guard counters.expectedPackets > 0 else { return }
        let restarted =
            counters.expectedPackets < previous.expectedPackets
            || counters.receivedPackets < previous.receivedPackets
        let newlyExpected =
            restarted || previous.expectedPackets == 0
            ? 1 : counters.expectedPackets.saturatingSubtracting(previous.expectedPackets)
        guard newlyExpected > 0 else { return }
        record(.lost, count: Int(clamping: newlyExpected - 1))
        record(.received)
    }

    /// Takes the jitter buffer's figures as they stand; a counter that went backwards (a reset
    /// buffer) is handled as in ``update(reception:)``.
    public mutating func update(playout figures: PlayoutFigures) {
        if figures.unplayedPackets < playout.unplayedPackets || figures.playedSamples < playout.playedSamples
            || figures.concealedSamples < playout.concealedSamples || figures.interruptions < playout.interruptions
        {
            banked.addPlayout(playout)
        }
        playout = figures
    }

    /// Records what became of the next expected packet, in sequence-number order. Allocates
    /// nothing.
    ///
    /// ``recordArrival(_:)`` calls it for the network's view of the stream; a session whose
    /// jitter buffer tells the fate of every sequence number at playout (played, never came,
    /// came too late) can call this instead, so that the burst metrics are the listener's.
    public mutating func record(_ fate: PacketFate) {
        burstGap.record(fate)
        transitions.record(lost: fate != .received)
    }

    /// Records `count` packets of the same fate: ``record(_:)`` repeated, with `count` taken
    /// into 0...65536 (no gap in 16-bit sequence numbers is longer).
    public mutating func record(_ fate: PacketFate, count: Int) {
        for _ in 0..<min(max(count, 0), 65536) { record(fate) }
    }

    /// Notes that we sent an RTCP report carrying `timestamp` (an SR's NTP timestamp, or an XR
    /// receiver reference time) at local time `time`, so that the far end's echo of it gives
    /// the round-trip time.
    public mutating func recordSentTimestamp(_ timestamp: NTPTimestamp, at time: MediaTime) {
        roundTripClock.recordSent(timestamp, at: time)
    }

    /// Takes a report block the far end sent about our stream (the caller picks the block whose
    /// SSRC is ours), received at local time `arrival`: its loss and jitter figures, and the
    /// round-trip time when its LSR echoes one of our recent reports (RFC 3550 §6.4.1).
    public mutating func recordRemoteReport(_ block: RTCPReportBlock, arrival: MediaTime) {
        var remote = self.remote ?? RemoteReception()
        remote.fractionLostPercent = Double(block.fractionLost) * 100 / 256
        remote.cumulativeLost = Int(block.cumulativeLost)
        remote.jitterMilliseconds = Double(block.jitter) * 1000 / Double(max(codec.clockRate, 1))
        self.remote = remote
        noteRoundTrip(lastReport: block.lastSenderReport, delay: block.delaySinceLastSenderReport, arrival: arrival)
    }

    /// Takes an XR DLRR sub-block addressed to us (RFC 3611 §4.5), received at local time
    /// `arrival`: the round-trip time when it echoes one of our receiver reference times.
    public mutating func recordRemoteReferenceReply(_ item: RTCPDLRRItem, arrival: MediaTime) {
        noteRoundTrip(lastReport: item.lastReceiverReport, delay: item.delaySinceLastReceiverReport, arrival: arrival)
    }

    /// Takes the far end's XR VoIP Metrics about our stream (decoded with
    /// ``VoIPMetrics/init(_:)``): its discard rate and MOS-CQ.
    public mutating func recordRemoteMetrics(_ metrics: VoIPMetrics) {
        var remote = self.remote ?? RemoteReception()
        remote.discardPercent = metrics.discardFraction * 100
        remote.conversationalMOS = metrics.conversationalMOS
        self.remote = remote
    }

    private mutating func noteRoundTrip(lastReport: UInt32, delay: UInt32, arrival: MediaTime) {
        if let measured = roundTripClock.roundTrip(lastReport: lastReport, delay: delay, arrival: arrival) {
            roundTrip = measured
            fastestRoundTrip.record(measured)
        }
    }

    // MARK: Reporting

    /// The report for the interval ending at `now`, which starts the next interval.
    public mutating func makeReport(now: MediaTime) -> QualityReport {
        let totals = currentTotals
        let window = windowBaseline
        let latency = LatencyEstimate(
            networkMilliseconds: fastestRoundTrip.fastest.map { $0.milliseconds / 2 },
            jitterBufferMilliseconds: playout.currentDelayMilliseconds.finiteOrZero,
            jitterBufferTargetMilliseconds: playout.targetDelayMilliseconds.finiteOrZero,
            codecMilliseconds: codec.algorithmicDelayMilliseconds.finiteOrZero,
            packetisationMilliseconds: codec.packetDurationMilliseconds.finiteOrZero)
        let ratedLossPercent = totals.loss(since: window).effectiveLossPercent
        let burstRatio = totals.burstRatio(since: window)
        let rating = rate(lossPercent: ratedLossPercent, burstRatio: burstRatio, delayMilliseconds: latency.totalMilliseconds)
        let burstGapMetrics = burstGap.metrics(packetDurationMilliseconds: codec.packetDurationMilliseconds.finiteOrZero)
        let report = QualityReport(
            timestampSeconds: now.seconds,
            elapsedSeconds: (now - start).seconds,
            intervalSeconds: max((now - lastReportTime).seconds, 0),
            codec: codec.encodingName,
            meanOpinionScore: rating?.conversationalMOS,
            rFactor: rating?.rFactor,
            level: rating.map { QualityLevel(meanOpinionScore: $0.conversationalMOS) },
            ratedLossPercent: ratedLossPercent,
            burstRatio: burstRatio,
            jitterMilliseconds: reception.jitterMilliseconds.finiteOrZero,
            latency: latency,
            roundTripMilliseconds: roundTrip?.milliseconds,
            intervalLoss: totals.loss(since: lastReportTotals),
            cumulativeLoss: totals.loss(since: MonitorTotals()),
            concealmentPercent: totals.concealmentPercent(since: lastReportTotals),
            interruptions: totals.interruptions,
            burstDensity: burstGapMetrics.burstDensity,
            gapDensity: burstGapMetrics.gapDensity,
            burstDurationMilliseconds: burstGapMetrics.burstDurationMilliseconds,
            gapDurationMilliseconds: burstGapMetrics.gapDurationMilliseconds,
            remote: remote)
        history[reportsMade % history.count] = totals
        reportsMade += 1
        lastReportTotals = totals
        lastReportTime = now
        return report
    }

    /// The codec's Ie and Bpl; for Opus without them, the wideband values for the bitrate
    /// received so far (payload bits over the media time of the packets that carried them).
    private var ratedImpairment: CodecImpairment? {
        if let impairment = codec.impairment, impairment.equipmentImpairment != nil { return impairment }
        guard reception.mediaPayloadPackets > 0, codec.packetDurationMilliseconds > 0 else { return nil }
        let mediaSeconds = Double(reception.mediaPayloadPackets) * codec.packetDurationMilliseconds / 1000
        return CodecImpairmentTable.standard.ratingEntry(
            forEncodingName: codec.encodingName, bitsPerSecond: Double(reception.mediaPayloadOctets) * 8 / mediaSeconds)
    }

    /// Everything counted so far: the banked counts plus the current counters.
    private var currentTotals: MonitorTotals {
        var totals = banked
        totals.addReception(reception)
        totals.addPlayout(playout)
        totals.transitions = transitions
        return totals
    }

    /// The totals at the start of the rating window: those of the report made
    /// ``Configuration/ratingWindowIntervals`` reports ago (still in the ring, about to be
    /// overwritten), or the start while fewer reports were made.
    private var windowBaseline: MonitorTotals {
        reportsMade >= history.count ? history[reportsMade % history.count] : MonitorTotals()
    }

    /// The E-model for these measured inputs and the codec's Ie and Bpl, or `nil` when the
    /// codec has no traceable values.
    private func rate(lossPercent: Double, burstRatio: Double, delayMilliseconds: Double) -> EModelResult? {
        guard let impairment = ratedImpairment else { return nil }
        var parameters = configuration.parameters
        parameters.packetLossPercent = min(max(lossPercent, 0), 100)
        parameters.burstRatio = burstRatio
        parameters.absoluteDelayMilliseconds = max(delayMilliseconds, 0)
        return try? EModel.evaluate(parameters.applying(impairment))
    }
}
