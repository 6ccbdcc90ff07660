import QualityMetrics
import PlayoutLab
import Capture

/// Everything the analyzer found about one RTP stream. Encoded as one object of the report
/// JSON's `streams` list (DESIGN.md "Report JSON"): snake_case keys, units in the names, and
/// `null` for what the capture could not tell.
///
/// Two sets of loss figures are reported on purpose. The top-level ones follow RFC 3550:
/// ``expected`` runs from the first to the highest sequence number, ``lost`` is expected minus
/// the distinct packets received (never negative because of duplicates), and ``duplicates``
/// and ``outOfOrder`` are counted apart. ``wireshark`` holds the figures exactly as tshark's
/// `-z rtp,streams` computes them, where "lost" is last − first + 1 − packets, so duplicates
/// make it negative and a late final packet shifts it (``WiresharkRTPStreamStatistics``).
public struct StreamReport: Sendable, Hashable, Encodable {
    /// The stream's endpoints and SSRC.
    public var key: RTPStreamKey
    /// The SIP Call-ID of the dialog whose SDP announced the stream, `nil` when none did.
    public var callID: String?
    /// How the stream was found.
    public var foundBy: StreamDiscovery
    /// The media encoding name (`PCMA`, `opus`, …), `nil` for a dynamic type no SDP named.
    public var codec: String?
    /// Every encoding name seen in the stream, telephone events and comfort noise included.
    public var encodingNames: [String]
    /// Every payload type seen, in order of first appearance.
    public var payloadTypes: [UInt8]
    /// The media clock rate in hertz, `nil` when unknown.
    public var clockRateHertz: UInt32?
    /// The SRTP crypto suite of the key the stream was decrypted with (given, or the one the
    /// offer/answer chose for its sender), `nil` for a plain stream.
    public var srtpSuite: String?
    /// The frame number of the stream's first packet.
    public var firstFrame: Int
    /// The capture time of the first packet, in seconds since the Unix epoch.
    public var startSeconds: Double
    /// From the first to the last packet, in seconds.
    public var durationSeconds: Double
    /// Packets received, duplicates included.
    public var packets: Int
    /// RFC 3550 A.3 expected packets.
    public var expected: Int
    /// Expected packets that never arrived (expected − distinct packets received, at least 0).
    public var lost: Int
    /// ``lost`` in percent of ``expected``.
    public var lossPercent: Double
    /// Packets received more than once.
    public var duplicates: Int
    /// Packets that arrived after a later one (RFC 3550 sequence validation's "reordered").
    public var outOfOrder: Int
    /// The final RFC 3550 A.8 interarrival jitter in milliseconds, `nil` without a clock rate.
    public var jitterMilliseconds: Double?
    /// The figures as tshark computes them.
    public var wireshark: WiresharkFigures
    /// RFC 3611 burst/gap metrics (Gmin 16) and the E-model burst ratio.
    public var burstGap: BurstGapReport
    /// What the RTCP of the capture said about this SSRC, `nil` when it said nothing.
    public var rtcp: RTCPSourceReport?
    /// What SRTP decryption gave, `nil` when no key applied to the stream.
    public var srtp: SRTPReport?
    /// The call path's round trip, endpoint to endpoint, in milliseconds: this SSRC's and the
    /// reverse direction's capture-point round trips added; `nil` unless
    /// the RTCP of both directions gave one.
    public var roundTripMilliseconds: Double?
    /// The call path's round trip from the smallest capture-point round trips of both
    /// directions, in milliseconds: the estimate least disturbed by the endpoints' scheduling.
    public var roundTripMinimumMilliseconds: Double?
    /// This SSRC's round trip as seen at the capture point (mean), in milliseconds.
    public var capturePointRoundTripMilliseconds: Double?
    /// The reverse direction's capture-point round trip (mean), in milliseconds.
    public var reverseCapturePointRoundTripMilliseconds: Double?
    /// The media's payload bitrate in bits per second (payload bits over the stream's media
    /// time), `nil` without media packets.
    public var mediaBitsPerSecond: Double?
    /// Whether what a listener heard could be rebuilt: the payloads were readable (decrypted
    /// where encrypted) and the codec decoded.
    public var audioDecoded: Bool
    /// Why ``audioDecoded`` is false, `nil` when it is true.
    public var audioReason: String?
    /// The last interarrival jitter the far end reported, in milliseconds.
    public var farEndJitterMilliseconds: Double?
    /// RFC 4733 key presses: of the payload types the SDP names `telephone-event`, or, where
    /// nothing names a dynamic payload type beside known media, of its packets whose payloads
    /// are single DTMF event blocks.
    public var dtmfEvents: [DTMFEventReport]
    /// The E-model rating from what was heard (see ``QualityEstimate``); without a replay, the
    /// network rating. `nil` when the codec has no impairment values.
    public var quality: QualityEstimate?
    /// The E-model rating from the network figures alone (loss on the wire, 2 × jitter of
    /// buffering), `nil` when the codec has no impairment values.
    public var networkQuality: QualityEstimate?
    /// The loss and delay behind our jitter buffer, `nil` when the stream was not replayed
    /// (not audio, clock rate unknown, or replay turned off).
    public var jitterBuffer: JitterBufferReport?
    /// What became of the WAV file of what a listener heard, `nil` when none was asked for.
    public var listenerWAV: ListenerWAVReport?
    /// Per-interval figures for plots.
    public var timeline: [TimelineBucket]

    enum CodingKeys: String, CodingKey {
        case ssrc, ssrcHex = "ssrc_hex", callID = "call_id"
        case sourceAddress = "source_address", sourcePort = "source_port"
        case destinationAddress = "destination_address", destinationPort = "destination_port"
        case foundBy = "found_by", codec, encodingNames = "encoding_names", payloadTypes = "payload_types"
        case clockRateHertz = "clock_rate_hz", srtpSuite = "srtp_suite", firstFrame = "first_frame"
        case startSeconds = "start_time_s", durationSeconds = "duration_s"
        case packets, expected, lost, lossPercent = "loss_percent", duplicates, outOfOrder = "out_of_order"
        case jitterMilliseconds = "jitter_ms", wireshark, burstGap = "burst_gap", rtcp, srtp
        case roundTripMilliseconds = "rtt_ms", roundTripMinimum = "rtt_ms_min", capturePointRoundTrip = "capture_rtt_ms"
        case reverseCapturePointRoundTrip = "reverse_capture_rtt_ms", mediaBitsPerSecond = "bitrate_bps"
        case audioDecoded = "audio_decoded", audioReason = "reason", farEndJitterMilliseconds = "far_end_jitter_ms"
        case dtmfEvents = "dtmf_events", rFactor = "r_factor", mosCQE = "mos_cqe", emodel
        case rFactorNetwork = "r_factor_network", mosCQENetwork = "mos_cqe_network", emodelNetwork = "emodel_network"
        case jitterBuffer = "jitter_buffer", listenerWAV = "wav", timeline
    }

    /// Encodes every key, writing `null` for unknown values rather than leaving keys out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key.ssrc, forKey: .ssrc)
        try container.encode(key.ssrcHex, forKey: .ssrcHex)
        try container.encode(callID, forKey: .callID)
        try container.encode(key.source.address.description, forKey: .sourceAddress)
        try container.encode(key.source.port, forKey: .sourcePort)
        try container.encode(key.destination.address.description, forKey: .destinationAddress)
        try container.encode(key.destination.port, forKey: .destinationPort)
        try container.encode(foundBy, forKey: .foundBy)
        try container.encode(codec, forKey: .codec)
        try container.encode(encodingNames, forKey: .encodingNames)
        try container.encode(payloadTypes, forKey: .payloadTypes)
        try container.encode(clockRateHertz, forKey: .clockRateHertz)
        try container.encode(srtpSuite, forKey: .srtpSuite)
        try container.encode(firstFrame, forKey: .firstFrame)
        try container.encode(startSeconds, forKey: .startSeconds)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(packets, forKey: .packets)
        try container.encode(expected, forKey: .expected)
        try container.encode(lost, forKey: .lost)
        try container.encode(lossPercent, forKey: .lossPercent)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(outOfOrder, forKey: .outOfOrder)
        try container.encode(jitterMilliseconds, forKey: .jitterMilliseconds)
        try container.encode(wireshark, forKey: .wireshark)
        try container.encode(burstGap, forKey: .burstGap)
        try container.encode(rtcp, forKey: .rtcp)
        try container.encode(srtp, forKey: .srtp)
        try container.encode(roundTripMilliseconds, forKey: .roundTripMilliseconds)
        try container.encode(roundTripMinimumMilliseconds, forKey: .roundTripMinimum)
        try container.encode(capturePointRoundTripMilliseconds, forKey: .capturePointRoundTrip)
        try container.encode(reverseCapturePointRoundTripMilliseconds, forKey: .reverseCapturePointRoundTrip)
        try container.encode(mediaBitsPerSecond, forKey: .mediaBitsPerSecond)
        try container.encode(audioDecoded, forKey: .audioDecoded)
        try container.encode(audioReason, forKey: .audioReason)
        try container.encode(farEndJitterMilliseconds, forKey: .farEndJitterMilliseconds)
        try container.encode(dtmfEvents, forKey: .dtmfEvents)
        try container.encode(quality?.rFactor, forKey: .rFactor)
        try container.encode(quality?.meanOpinionScore, forKey: .mosCQE)
        try container.encode(quality, forKey: .emodel)
        try container.encode(networkQuality?.rFactor, forKey: .rFactorNetwork)
        try container.encode(networkQuality?.meanOpinionScore, forKey: .mosCQENetwork)
        try container.encode(networkQuality, forKey: .emodelNetwork)
        try container.encode(jitterBuffer, forKey: .jitterBuffer)
        try container.encode(listenerWAV, forKey: .listenerWAV)
        try container.encode(timeline, forKey: .timeline)
    }
}

/// One stream's figures exactly as TShark 4.0's `-z rtp,streams` prints them.
public struct WiresharkFigures: Sendable, Hashable, Encodable {
    /// Packets, duplicates included ("Pkts").
    public var packets: UInt32
    /// Last − first sequence number + 1, with wraps ("expected" in Wireshark's analysis).
    public var expected: UInt32
    /// Expected − packets: negative with duplicates ("Lost").
    public var lost: Int32
    /// ``lost`` in percent of ``expected``.
    public var lostPercent: Double
    /// Min/mean/max delta between packets, in milliseconds.
    public var delta: WiresharkMillisecondFigures
    /// Min/mean/max of the running jitter estimate, in milliseconds (−1/0/0 without a clock).
    public var jitter: WiresharkMillisecondFigures
    /// tshark's "Problems" mark: a wrong sequence number or timestamp somewhere.
    public var problems: Bool

    init(_ statistics: WiresharkRTPStreamStatistics) {
        packets = statistics.packets
        expected = statistics.expectedPackets
        lost = statistics.lostPackets
        lostPercent = statistics.lostPercent
        delta = statistics.delta
        jitter = statistics.jitter
        problems = statistics.hasProblems
    }

    enum CodingKeys: String, CodingKey {
        case packets, expected, lost, lostPercent = "lost_percent", problems
        case deltaMinimum = "delta_ms_min", deltaMean = "delta_ms_mean", deltaMaximum = "delta_ms_max"
        case jitterMinimum = "jitter_ms_min", jitterMean = "jitter_ms_mean", jitterMaximum = "jitter_ms_max"
    }

    /// Flattens the figures into `delta_ms_min` … `jitter_ms_max`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(packets, forKey: .packets)
        try container.encode(expected, forKey: .expected)
        try container.encode(lost, forKey: .lost)
        try container.encode(lostPercent, forKey: .lostPercent)
        try container.encode(problems, forKey: .problems)
        try container.encode(delta.minimum, forKey: .deltaMinimum)
        try container.encode(delta.mean, forKey: .deltaMean)
        try container.encode(delta.maximum, forKey: .deltaMaximum)
        try container.encode(jitter.minimum, forKey: .jitterMinimum)
        try container.encode(jitter.mean, forKey: .jitterMean)
        try container.encode(jitter.maximum, forKey: .jitterMaximum)
    }
}

/// The RFC 3611 §4.7.2 burst/gap view of a stream's losses.
public struct BurstGapReport: Sendable, Hashable, Encodable {
    /// Gmin, the received run that ends a burst.
    public var minimumGap: UInt8
    /// Lost packets over expected (0…1).
    public var lossRate: Double
    /// Discarded packets over expected (0…1; 0 without a jitter buffer).
    public var discardRate: Double
    /// The burst and gap densities and durations.
    public var metrics: BurstGapMetrics
    /// The E-model BurstR from the two-state Markov model, `nil` before any loss.
    public var burstRatio: Double?

    enum CodingKeys: String, CodingKey {
        case minimumGap = "gmin", lossRate = "loss_rate", discardRate = "discard_rate"
        case burstDensity = "burst_density", gapDensity = "gap_density"
        case burstDuration = "burst_duration_ms", gapDuration = "gap_duration_ms", burstRatio = "burst_ratio"
    }

    /// Flattens the metrics.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minimumGap, forKey: .minimumGap)
        try container.encode(lossRate, forKey: .lossRate)
        try container.encode(discardRate, forKey: .discardRate)
        try container.encode(metrics.burstDensity, forKey: .burstDensity)
        try container.encode(metrics.gapDensity, forKey: .gapDensity)
        try container.encode(metrics.burstDurationMilliseconds, forKey: .burstDuration)
        try container.encode(metrics.gapDurationMilliseconds, forKey: .gapDuration)
        try container.encode(burstRatio, forKey: .burstRatio)
    }
}

/// One RFC 4733 key press.
public struct DTMFEventReport: Sendable, Hashable, Encodable {
    /// The keypad character (`0`–`9`, `*`, `#`, `A`–`D`), or the event code for other events.
    public var key: String
    /// When its first packet arrived, in seconds after the stream's first packet.
    public var startSeconds: Double
    /// The event's duration in milliseconds.
    public var durationMilliseconds: Double
    /// The power level in dBm0 (negative).
    public var volumeDBm0: Int
    /// Whether an end packet arrived.
    public var endReceived: Bool

    enum CodingKeys: String, CodingKey {
        case key, startSeconds = "start_s", durationMilliseconds = "duration_ms", volumeDBm0 = "volume_dbm0"
        case endReceived = "end_received"
    }
}

/// The E-model rating of a stream and the inputs it was computed from.
///
/// The heard rating (``StreamReport/quality``): Ppl is the effective loss behind our jitter
/// buffer (network + late), BurstR comes from the two-state Markov model of the network
/// losses, and Ta is the mouth-to-ear delay: the path's one-way delay (half the path round
/// trip from RTCP, or `--one-way-ms`), our buffer's mean playout delay, the packetisation and
/// the codec's look-ahead (T = Ta, Tr = 2·Ta). The network rating
/// (``StreamReport/networkQuality``) uses the network loss and a buffer assumed to hold twice
/// the interarrival jitter instead. Ie and Bpl come from the codec's G.113 entry, or for Opus
/// from the values derived here (``impairmentSource`` says which).
public struct QualityEstimate: Sendable, Hashable, Encodable {
    /// The table entry used (`g711-plc`, `opus-wb-24k`, …).
    public var codecKey: String
    /// The E-model variant of the codec (its R scale).
    public var bandwidth: String
    /// Ie (Ie,wb for wideband codecs).
    public var equipmentImpairment: Double
    /// Bpl (Bpl,wb for wideband codecs).
    public var packetLossRobustness: Double
    /// Where Ie and Bpl come from.
    public var impairmentSource: String
    /// Ppl, the packet-loss percentage.
    public var packetLossPercent: Double
    /// BurstR (1 for random loss).
    public var burstRatio: Double
    /// Ta, the mouth-to-ear delay, in milliseconds: the sum of the four parts below.
    public var oneWayDelayMilliseconds: Double
    /// The path's one-way network delay, in milliseconds.
    public var networkOneWayMilliseconds: Double
    /// The playout delay, in milliseconds (our buffer's mean, or 2 × jitter for the network rating).
    public var playoutDelayMilliseconds: Double
    /// The packetisation delay, in milliseconds.
    public var packetisationMilliseconds: Double
    /// The codec's look-ahead, in milliseconds.
    public var codecDelayMilliseconds: Double
    /// R.
    public var rFactor: Double
    /// MOS-CQE.
    public var meanOpinionScore: Double

    enum CodingKeys: String, CodingKey {
        case codecKey = "codec_key", bandwidth, equipmentImpairment = "ie", packetLossRobustness = "bpl"
        case impairmentSource = "ie_source", packetLossPercent = "ppl_percent", burstRatio = "burst_ratio"
        case oneWayDelayMilliseconds = "ta_ms", networkOneWayMilliseconds = "network_one_way_ms"
        case playoutDelayMilliseconds = "playout_delay_ms", packetisationMilliseconds = "packetisation_ms"
        case codecDelayMilliseconds = "codec_delay_ms", rFactor = "r_factor", meanOpinionScore = "mos_cqe"
    }
}
