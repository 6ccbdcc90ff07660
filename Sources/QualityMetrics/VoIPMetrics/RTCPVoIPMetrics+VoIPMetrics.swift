import RTP

/// The bridge between ``VoIPMetrics`` (natural units) and the RTP module's wire form of the
/// RTCP XR VoIP Metrics Report Block, ``RTP/RTCPVoIPMetrics`` (RFC 3611 §4.7, block type 7).
///
/// Scaling (RFC 3611): rates and densities are fractions × 256, capped at 255 and truncated;
/// durations and delays are milliseconds; signal and noise levels are signed dB; R factors
/// 0–100; MOS × 10 in 10–50. The value 127 means "unavailable" in the signal level, noise
/// level, RERL, R factor, external R factor, MOS-LQ and MOS-CQ fields. RFC 3611 defines no
/// "unavailable" value for the delay fields; this implementation writes 0 for an unknown delay
/// and reads 0 as unknown.
extension RTCPVoIPMetrics {
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
            gapThreshold: metrics.minimumGap,
            rFactor: Scale.byte(metrics.rFactor, in: 0...100),
            externalRFactor: Scale.byte(metrics.externalRFactor, in: 0...100),
            mosListeningQuality: Scale.byte(metrics.listeningMOS.map { $0 * 10 }, in: 10...50),
            mosConversationalQuality: Scale.byte(metrics.conversationalMOS.map { $0 * 10 }, in: 10...50),
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
    public init(_ block: RTCPVoIPMetrics) {
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
        minimumGap = block.gapThreshold
        rFactor = VoIPMetricsScaling.value(block.rFactor, in: 0...100)
        externalRFactor = VoIPMetricsScaling.value(block.externalRFactor, in: 0...100)
        listeningMOS = VoIPMetricsScaling.value(block.mosListeningQuality, in: 10...50).map { $0 / 10 }
        conversationalMOS = VoIPMetricsScaling.value(block.mosConversationalQuality, in: 10...50).map { $0 / 10 }
        receiverConfiguration = ReceiverConfiguration(rawValue: block.receiverConfiguration)
        jitterBufferNominalMilliseconds = Double(block.jitterBufferNominal)
        jitterBufferMaximumMilliseconds = Double(block.jitterBufferMaximum)
        jitterBufferAbsoluteMaximumMilliseconds = Double(block.jitterBufferAbsoluteMaximum)
    }
}

/// The RFC 3611 §4.7 scalings between natural units and the block's integer fields.
enum VoIPMetricsScaling {
    /// The value of the 8-bit fields that means "unavailable".
    static let unavailable: UInt8 = 127

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
        guard let value, !value.isNaN else { return unavailable }
        let clamped = Swift.min(Swift.max(value.rounded(), Double(range.lowerBound)), Double(range.upperBound))
        return UInt8(clamped)
    }

    /// The field's value when it lies in `range`, else `nil` (127 and undefined values).
    static func value(_ field: UInt8, in range: ClosedRange<UInt8>) -> Double? {
        range.contains(field) ? Double(field) : nil
    }
}
