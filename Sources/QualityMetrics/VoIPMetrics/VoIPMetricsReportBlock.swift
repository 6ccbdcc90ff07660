/// The fields of an RTCP XR VoIP Metrics Report Block (RFC 3611 §4.7, block type 7), as the
/// integers that go on the wire, without the block header.
///
/// Layout (nine 32-bit words after the 4-byte block header `BT=7 | reserved | length=8`):
///
/// ```
/// SSRC of source
/// loss rate | discard rate | burst density | gap density
/// burst duration (16)      | gap duration (16)
/// round trip delay (16)    | end system delay (16)
/// signal level | noise level | RERL | Gmin
/// R factor | ext. R factor | MOS-LQ | MOS-CQ
/// RX config | reserved     | JB nominal (16)
/// JB maximum (16)          | JB abs max (16)
/// ```
///
/// Scaling (RFC 3611): rates and densities are fractions × 256, capped at 255 and truncated;
/// durations and delays are milliseconds; signal and noise levels are signed dB; R factors
/// 0–100; MOS × 10 in 10–50. The value 127 means "unavailable" in the signal level, noise
/// level, RERL, R factor, external R factor, MOS-LQ and MOS-CQ fields. RFC 3611 defines no
/// "unavailable" value for the delay fields; this implementation writes 0 for an unknown delay
/// and reads 0 as unknown.
public struct VoIPMetricsReportBlock: Sendable, Hashable, Codable {
    /// The XR block type of the VoIP Metrics block.
    public static let blockType: UInt8 = 7
    /// The block length field: the block's size in 32-bit words minus one (36 bytes).
    public static let blockLength: UInt16 = 8
    /// The value of the 8-bit fields that means "unavailable".
    public static let unavailable: UInt8 = 127

    /// The SSRC of the RTP source these metrics describe.
    public var ssrc: UInt32
    /// Loss rate, fraction × 256.
    public var lossRate: UInt8
    /// Discard rate, fraction × 256.
    public var discardRate: UInt8
    /// Burst density, fraction × 256.
    public var burstDensity: UInt8
    /// Gap density, fraction × 256.
    public var gapDensity: UInt8
    /// Burst duration, ms.
    public var burstDuration: UInt16
    /// Gap duration, ms.
    public var gapDuration: UInt16
    /// Round-trip delay, ms.
    public var roundTripDelay: UInt16
    /// End-system delay, ms.
    public var endSystemDelay: UInt16
    /// Signal level, dB relative to 0 dBm0 (127 unavailable).
    public var signalLevel: Int8
    /// Noise level, dB relative to 0 dBm0 (127 unavailable).
    public var noiseLevel: Int8
    /// Residual echo return loss, dB (127 unavailable).
    public var residualEchoReturnLoss: UInt8
    /// Gmin.
    public var minimumGap: UInt8
    /// R factor 0–100 (127 unavailable).
    public var rFactor: UInt8
    /// External R factor 0–100 (127 unavailable).
    public var externalRFactor: UInt8
    /// MOS-LQ × 10, 10–50 (127 unavailable).
    public var listeningMOS: UInt8
    /// MOS-CQ × 10, 10–50 (127 unavailable).
    public var conversationalMOS: UInt8
    /// RX config byte (see ``ReceiverConfiguration``).
    public var receiverConfiguration: UInt8
    /// Jitter buffer nominal delay, ms.
    public var jitterBufferNominal: UInt16
    /// Jitter buffer maximum delay, ms.
    public var jitterBufferMaximum: UInt16
    /// Jitter buffer absolute maximum delay, ms.
    public var jitterBufferAbsoluteMaximum: UInt16

    /// A block with the given field values; see the properties for each.
    public init(
        ssrc: UInt32, lossRate: UInt8, discardRate: UInt8, burstDensity: UInt8, gapDensity: UInt8,
        burstDuration: UInt16, gapDuration: UInt16, roundTripDelay: UInt16, endSystemDelay: UInt16,
        signalLevel: Int8, noiseLevel: Int8, residualEchoReturnLoss: UInt8, minimumGap: UInt8,
        rFactor: UInt8, externalRFactor: UInt8, listeningMOS: UInt8, conversationalMOS: UInt8,
        receiverConfiguration: UInt8, jitterBufferNominal: UInt16, jitterBufferMaximum: UInt16,
        jitterBufferAbsoluteMaximum: UInt16
    ) {
        self.ssrc = ssrc
        self.lossRate = lossRate
        self.discardRate = discardRate
        self.burstDensity = burstDensity
        self.gapDensity = gapDensity
        self.burstDuration = burstDuration
        self.gapDuration = gapDuration
        self.roundTripDelay = roundTripDelay
        self.endSystemDelay = endSystemDelay
        self.signalLevel = signalLevel
        self.noiseLevel = noiseLevel
        self.residualEchoReturnLoss = residualEchoReturnLoss
        self.minimumGap = minimumGap
        self.rFactor = rFactor
        self.externalRFactor = externalRFactor
        self.listeningMOS = listeningMOS
        self.conversationalMOS = conversationalMOS
        self.receiverConfiguration = receiverConfiguration
        self.jitterBufferNominal = jitterBufferNominal
        self.jitterBufferMaximum = jitterBufferMaximum
        self.jitterBufferAbsoluteMaximum = jitterBufferAbsoluteMaximum
    }

    /// Encodes `metrics` with the RFC's scaling: out-of-range values are clamped into their
    /// field (densities to 255, durations to 65535 ms, R to 0–100, MOS to 1.0–5.0), `nil`
    /// becomes "unavailable".
    public init(ssrc: UInt32, metrics: VoIPMetrics) {
        typealias Scale = VoIPMetricsScaling
        self.init(
            ssrc: ssrc,
            lossRate: Scale.fraction(metrics.lossFraction),
            discardRate: Scale.fraction(metrics.discardFraction),
            burstDensity: Scale.fraction(metrics.burstGap.burstDensity),
            gapDensity: Scale.fraction(metrics.burstGap.gapDensity),
            burstDuration: Scale.milliseconds(metrics.burstGap.burstDurationMilliseconds),
            gapDuration: Scale.milliseconds(metrics.burstGap.gapDurationMilliseconds),
            roundTripDelay: Scale.milliseconds(metrics.roundTripDelayMilliseconds ?? 0),
            endSystemDelay: Scale.milliseconds(metrics.endSystemDelayMilliseconds ?? 0),
            signalLevel: Scale.level(metrics.signalLevelDB),
            noiseLevel: Scale.level(metrics.noiseLevelDB),
            residualEchoReturnLoss: Scale.byte(metrics.residualEchoReturnLossDB, in: 0...126),
            minimumGap: metrics.minimumGap,
            rFactor: Scale.byte(metrics.rFactor, in: 0...100),
            externalRFactor: Scale.byte(metrics.externalRFactor, in: 0...100),
            listeningMOS: Scale.byte(metrics.listeningMOS.map { $0 * 10 }, in: 10...50),
            conversationalMOS: Scale.byte(metrics.conversationalMOS.map { $0 * 10 }, in: 10...50),
            receiverConfiguration: metrics.receiverConfiguration.rawValue,
            jitterBufferNominal: Scale.milliseconds(metrics.jitterBufferNominalMilliseconds),
            jitterBufferMaximum: Scale.milliseconds(metrics.jitterBufferMaximumMilliseconds),
            jitterBufferAbsoluteMaximum: Scale.milliseconds(metrics.jitterBufferAbsoluteMaximumMilliseconds))
    }
}

extension VoIPMetrics {
    /// Decodes a block's fields into natural units: 127 (and any value outside a field's
    /// defined range, such as an R factor of 101–126 or a MOS below 10) becomes `nil`, a zero
    /// delay becomes `nil`.
    public init(_ block: VoIPMetricsReportBlock) {
        self.init()
        lossFraction = Double(block.lossRate) / 256
        discardFraction = Double(block.discardRate) / 256
        burstGap = BurstGapMetrics(
            burstDensity: Double(block.burstDensity) / 256, gapDensity: Double(block.gapDensity) / 256,
            burstDurationMilliseconds: Double(block.burstDuration),
            gapDurationMilliseconds: Double(block.gapDuration))
        roundTripDelayMilliseconds = block.roundTripDelay == 0 ? nil : Double(block.roundTripDelay)
        endSystemDelayMilliseconds = block.endSystemDelay == 0 ? nil : Double(block.endSystemDelay)
        signalLevelDB = block.signalLevel == 127 ? nil : Double(block.signalLevel)
        noiseLevelDB = block.noiseLevel == 127 ? nil : Double(block.noiseLevel)
        residualEchoReturnLossDB = VoIPMetricsScaling.value(block.residualEchoReturnLoss, in: 0...126)
        minimumGap = block.minimumGap
        rFactor = VoIPMetricsScaling.value(block.rFactor, in: 0...100)
        externalRFactor = VoIPMetricsScaling.value(block.externalRFactor, in: 0...100)
        listeningMOS = VoIPMetricsScaling.value(block.listeningMOS, in: 10...50).map { $0 / 10 }
        conversationalMOS = VoIPMetricsScaling.value(block.conversationalMOS, in: 10...50).map { $0 / 10 }
        receiverConfiguration = ReceiverConfiguration(rawValue: block.receiverConfiguration)
        jitterBufferNominalMilliseconds = Double(block.jitterBufferNominal)
        jitterBufferMaximumMilliseconds = Double(block.jitterBufferMaximum)
        jitterBufferAbsoluteMaximumMilliseconds = Double(block.jitterBufferAbsoluteMaximum)
    }
}

/// The RFC 3611 §4.7 scalings between natural units and the block's integer fields.
enum VoIPMetricsScaling {
    /// A fraction × 256, capped at 255, integer part (§4.7.1, §4.7.2); NaN and negatives are 0.
    static func fraction(_ value: Double) -> UInt8 {
        guard value > 0 else { return 0 }
        let scaled = value * 256
        return scaled >= 255 ? 255 : UInt8(scaled)
    }

    /// Milliseconds rounded into 0...65535.
    static func milliseconds(_ value: Double) -> UInt16 {
        guard value > 0 else { return 0 }
        let rounded = value.rounded()
        return rounded >= 65535 ? 65535 : UInt16(rounded)
    }

    /// A signed dB level rounded into −128...126, or 127 when unavailable.
    static func level(_ value: Double?) -> Int8 {
        guard let value, !value.isNaN else { return 127 }
        return Int8(Swift.min(Swift.max(value.rounded(), -128), 126))
    }

    /// An 8-bit value rounded into `range`, or 127 when unavailable.
    static func byte(_ value: Double?, in range: ClosedRange<UInt8>) -> UInt8 {
        guard let value, !value.isNaN else { return VoIPMetricsReportBlock.unavailable }
        let clamped = Swift.min(Swift.max(value.rounded(), Double(range.lowerBound)), Double(range.upperBound))
        return UInt8(clamped)
    }

    /// The field's value when it lies in `range`, else `nil` (127 and undefined values).
    static func value(_ field: UInt8, in range: ClosedRange<UInt8>) -> Double? {
        range.contains(field) ? Double(field) : nil
    }
}
