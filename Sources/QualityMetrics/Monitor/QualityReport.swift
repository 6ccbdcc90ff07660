/// One reading of a call's quality, made by ``QualityMonitor/makeReport(now:)`` once per
/// interval: what a softphone shows as its network-quality indicator.
///
/// Everything is about the stream we receive, except ``remote`` (what the far end says about
/// the stream we send) and ``roundTripMilliseconds``. Encoded with `Codable`, the keys are
/// snake_case with units in their names (`mos`, `jitter_ms`, `interval_loss`…); a value that
/// is not known yet (`nil`) is left out. ``description`` is a one-line text rendering.
public struct QualityReport: Sendable, Hashable, Codable {
    /// When the report was made, in seconds on the caller's clock (the `now` given).
    public var timestampSeconds: Double
    /// Seconds since the monitor started.
    public var elapsedSeconds: Double
    /// Seconds since the previous report (or since the start, for the first).
    public var intervalSeconds: Double
    /// The codec's SDP encoding name.
    public var codec: String

    /// MOS-CQE, G.107 Annex B; `nil` when the codec has no traceable Ie (or Bpl while packets
    /// are lost).
    public var meanOpinionScore: Double?
    /// The E-model transmission rating R (on the codec's bandwidth scale); `nil` with ``meanOpinionScore``.
    public var rFactor: Double?
    /// The coarse grade of ``meanOpinionScore``; `nil` with it.
    public var level: QualityLevel?
    /// Ppl given to the E-model: the effective loss over the rating window, in percent.
    public var ratedLossPercent: Double
    /// BurstR given to the E-model: the two-state Markov fit of the packet fates over the
    /// rating window (1 when nothing was lost).
    public var burstRatio: Double

    /// The RFC 3550 interarrival jitter of the received stream, in milliseconds.
    public var jitterMilliseconds: Double
    /// The one-way delay estimate and its parts.
    public var latency: LatencyEstimate
    /// The round-trip time from the latest RTCP report that echoed one of ours; `nil` until known.
    public var roundTripMilliseconds: Double?

    /// Loss over the interval.
    public var intervalLoss: LossFigures
    /// Loss since the start.
    public var cumulativeLoss: LossFigures
    /// The share of played audio that concealment made up during the interval, in percent.
    public var concealmentPercent: Double
    /// Audible interruptions since the start, as the jitter buffer counts them.
    public var interruptions: Int64

    /// RFC 3611 burst density since the start: the fraction (0...1) of packets in bursts that
    /// were lost or discarded.
    public var burstDensity: Double
    /// RFC 3611 gap density since the start (0...1).
    public var gapDensity: Double
    /// RFC 3611 mean burst duration since the start, in milliseconds.
    public var burstDurationMilliseconds: Double
    /// RFC 3611 mean gap duration since the start, in milliseconds.
    public var gapDurationMilliseconds: Double

    /// What the far end reported about our stream; `nil` until it reported anything.
    public var remote: RemoteReception?

    enum CodingKeys: String, CodingKey {
        case timestampSeconds = "timestamp_s"
        case elapsedSeconds = "elapsed_s"
        case intervalSeconds = "interval_s"
        case codec
        case meanOpinionScore = "mos"
        case rFactor = "r_factor"
        case level
        case ratedLossPercent = "rated_loss_percent"
        case burstRatio = "burst_ratio"
        case jitterMilliseconds = "jitter_ms"
        case latency
        case roundTripMilliseconds = "rtt_ms"
        case intervalLoss = "interval_loss"
        case cumulativeLoss = "cumulative_loss"
        case concealmentPercent = "concealment_percent"
        case interruptions
        case burstDensity = "burst_density"
        case gapDensity = "gap_density"
        case burstDurationMilliseconds = "burst_duration_ms"
        case gapDurationMilliseconds = "gap_duration_ms"
        case remote
    }
}

/// The one-way (mouth-to-ear) delay estimate of a ``QualityReport``, the E-model's Ta, and its
/// parts, in milliseconds.
public struct LatencyEstimate: Sendable, Hashable, Codable {
    /// The sum of the parts (the network part counted as 0 while the RTT is unknown).
    public var totalMilliseconds: Double
    /// Half the fastest of the latest round trips (the path without its queueing, which the
    /// jitter buffer's delay holds); `nil` until an RTT is known.
    public var networkMilliseconds: Double?
    /// The jitter buffer's current delay.
    public var jitterBufferMilliseconds: Double
    /// The delay the jitter buffer steers towards (reported, not part of the total).
    public var jitterBufferTargetMilliseconds: Double
    /// The codec's algorithmic delay.
    public var codecMilliseconds: Double
    /// The packetisation delay: the audio carried by one packet.
    public var packetisationMilliseconds: Double

    /// The estimate from its parts.
    public init(
        networkMilliseconds: Double?, jitterBufferMilliseconds: Double, jitterBufferTargetMilliseconds: Double,
        codecMilliseconds: Double, packetisationMilliseconds: Double
    ) {
        self.networkMilliseconds = networkMilliseconds
        self.jitterBufferMilliseconds = jitterBufferMilliseconds
        self.jitterBufferTargetMilliseconds = jitterBufferTargetMilliseconds
        self.codecMilliseconds = codecMilliseconds
        self.packetisationMilliseconds = packetisationMilliseconds
        totalMilliseconds =
            (networkMilliseconds ?? 0) + jitterBufferMilliseconds + codecMilliseconds
            + packetisationMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case totalMilliseconds = "total_ms"
        case networkMilliseconds = "network_ms"
        case jitterBufferMilliseconds = "jitter_buffer_ms"
        case jitterBufferTargetMilliseconds = "jitter_buffer_target_ms"
        case codecMilliseconds = "codec_ms"
        case packetisationMilliseconds = "packetisation_ms"
    }
}

/// Packet loss over a span of the stream: on the network, and after the jitter buffer (late
/// and discarded packets counted as lost, as the listener hears them).
public struct LossFigures: Sendable, Hashable, Codable {
    /// Packets expected from the sequence numbers.
    public var expectedPackets: Int64
    /// Expected packets that never arrived.
    public var lostPackets: Int64
    /// Packets that arrived but were not played (late or discarded by the jitter buffer).
    public var unplayedPackets: Int64
    /// ``lostPackets`` over ``expectedPackets``, in percent; 0 when nothing was expected.
    public var networkLossPercent: Double
    /// Lost and unplayed packets over ``expectedPackets``, in percent (at most 100); 0 when
    /// nothing was expected.
    public var effectiveLossPercent: Double

    /// The figures of `expected` packets of which `lost` never came and `unplayed` came too late
    /// or were discarded. Negative counts are taken as 0; no division by zero.
    public init(expectedPackets: Int64, lostPackets: Int64, unplayedPackets: Int64) {
        self.expectedPackets = max(expectedPackets, 0)
        self.lostPackets = min(max(lostPackets, 0), self.expectedPackets)
        self.unplayedPackets = max(unplayedPackets, 0)
        networkLossPercent = Self.percent(self.lostPackets, of: self.expectedPackets)
        effectiveLossPercent = Self.percent(
            self.lostPackets.saturatingAdding(self.unplayedPackets), of: self.expectedPackets)
    }

    private static func percent(_ count: Int64, of total: Int64) -> Double {
        total > 0 ? min(Double(count) * 100 / Double(total), 100) : 0
    }

    enum CodingKeys: String, CodingKey {
        case expectedPackets = "expected"
        case lostPackets = "lost"
        case unplayedPackets = "late_or_discarded"
        case networkLossPercent = "network_loss_percent"
        case effectiveLossPercent = "effective_loss_percent"
    }
}

/// What the far end reported about the stream we send: from its RTCP report block (RFC 3550
/// §6.4) and, if it sends one, its XR VoIP Metrics block (RFC 3611 §4.7). Each field is `nil`
/// until the report that carries it arrives.
public struct RemoteReception: Sendable, Hashable, Codable {
    /// Its fraction lost since its previous report, in percent.
    public var fractionLostPercent: Double?
    /// Its cumulative count of our packets lost.
    public var cumulativeLost: Int?
    /// Its interarrival jitter of our stream, in milliseconds.
    public var jitterMilliseconds: Double?
    /// Its discard rate (XR), in percent.
    public var discardPercent: Double?
    /// Its MOS-CQ (XR).
    public var conversationalMOS: Double?

    /// Nothing reported yet.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case fractionLostPercent = "fraction_lost_percent"
        case cumulativeLost = "cumulative_lost"
        case jitterMilliseconds = "jitter_ms"
        case discardPercent = "discard_percent"
        case conversationalMOS = "mos_cq"
    }
}
