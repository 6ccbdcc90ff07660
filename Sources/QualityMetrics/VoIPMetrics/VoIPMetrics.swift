/// The quantities of the RFC 3611 VoIP Metrics block (§4.7) in natural units: fractions in
/// 0...1, delays in milliseconds, levels in dB, R and MOS as real numbers. `nil` means
/// "unavailable".
///
/// RTP's `RTCPVoIPMetrics` holds the same quantities in the block's scaled integer fields;
/// its `init(ssrc:metrics:)` and ``init(_:)`` convert between the two.
public struct VoIPMetrics: Sendable, Hashable, Codable {
    /// Lost packets over expected packets, 0...1 (§4.7.1).
    public var lossFraction: Double = 0
    /// Discarded packets over expected packets, 0...1 (§4.7.1).
    public var discardFraction: Double = 0
    /// Burst and gap densities and durations (§4.7.2).
    public var burstGap = BurstGapMetrics(
        burstDensity: 0, gapDensity: 0, burstDurationMilliseconds: 0, gapDurationMilliseconds: 0)
    /// The most recent round-trip time between the RTP interfaces, ms (§4.7.3).
    public var roundTripDelayMilliseconds: Double?
    /// The most recent end-system delay, ms: encoding and packetisation on the send side plus
    /// jitter buffer, decoding and playout on the receive side (§4.7.3).
    public var endSystemDelayMilliseconds: Double?
    /// The speech signal level relative to 0 dBm0, dB (§4.7.4).
    public var signalLevelDB: Double?
    /// The background noise level in silent periods relative to 0 dBm0, dB (§4.7.4).
    public var noiseLevelDB: Double?
    /// The residual echo return loss, dB (§4.7.4).
    public var residualEchoReturnLossDB: Double?
    /// Gmin, the burst/gap threshold used for ``burstGap`` (§4.7.2).
    public var minimumGap: UInt8 = 16
    /// The R factor of this RTP segment, 0–100 (§4.7.5).
    public var rFactor: Double?
    /// The R factor of an external (non-RTP) segment of the call, 0–100 (§4.7.5).
    public var externalRFactor: Double?
    /// MOS-LQ, the listening-quality MOS, excluding the effects of delay, 1–5 (§4.7.5).
    public var listeningMOS: Double?
    /// MOS-CQ, the conversational-quality MOS, including the effects of delay, 1–5 (§4.7.5).
    public var conversationalMOS: Double?
    /// The receiver's concealment and jitter-buffer configuration (§4.7.6).
    public var receiverConfiguration = ReceiverConfiguration.unspecified
    /// The jitter buffer's nominal delay, ms (§4.7.7).
    public var jitterBufferNominalMilliseconds: Double = 0
    /// The jitter buffer's current maximum delay, ms (§4.7.7).
    public var jitterBufferMaximumMilliseconds: Double = 0
    /// The jitter buffer's absolute maximum delay, ms (§4.7.7).
    public var jitterBufferAbsoluteMaximumMilliseconds: Double = 0

    /// Everything zero or unavailable.
    public init() {}

    /// The loss, discard and burst/gap metrics of `counter`, everything else unavailable.
    ///
    /// - Parameters:
    ///   - counter: the burst/gap counter of the stream.
    ///   - packetDurationMilliseconds: the audio carried by one packet.
    public init(burstGap counter: BurstGapCounter, packetDurationMilliseconds: Double) {
        lossFraction = counter.lossFraction
        discardFraction = counter.discardFraction
        burstGap = counter.metrics(packetDurationMilliseconds: packetDurationMilliseconds)
        minimumGap = counter.minimumGap
    }

    /// Sets ``rFactor``, ``listeningMOS`` and ``conversationalMOS`` from an E-model result.
    ///
    /// The block's fields are on the narrowband scale (R 0–100): a wideband or fullband R is
    /// divided by its scale factor (1.29, 1.48) first; the MOS values are the result's own.
    public mutating func setQuality(from result: EModelResult) {
        rFactor = result.rFactor / result.parameters.bandwidth.rScaleFactor
        listeningMOS = result.listeningMOS
        conversationalMOS = result.conversationalMOS
    }
}
