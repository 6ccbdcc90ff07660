/// The RX config byte of the RFC 3611 VoIP Metrics block (§4.7.6): the receiver's packet-loss
/// concealment, jitter-buffer adaptivity and jitter-buffer adjustment rate.
public struct ReceiverConfiguration: Sendable, Hashable, Codable {
    /// The PLC field (bits 7–6).
    public enum Concealment: UInt8, Sendable, Hashable, Codable, CaseIterable {
        /// 00: unspecified.
        case unspecified = 0
        /// 01: concealment disabled (silence or nothing played for lost packets).
        case disabled = 1
        /// 10: enhanced concealment (an algorithm that reconstructs speech).
        case enhanced = 2
        /// 11: standard concealment (such as G.711 Appendix I, or the codec's own).
        case standard = 3
    }

    /// The JBA field (bits 5–4).
    public enum JitterBufferAdaptivity: UInt8, Sendable, Hashable, Codable, CaseIterable {
        /// 00: unknown.
        case unknown = 0
        /// 01: reserved by RFC 3611.
        case reserved = 1
        /// 10: a non-adaptive (fixed) jitter buffer.
        case nonAdaptive = 2
        /// 11: an adaptive jitter buffer.
        case adaptive = 3
    }

    /// Packet-loss concealment in use.
    public var concealment: Concealment
    /// Whether the jitter buffer adapts.
    public var adaptivity: JitterBufferAdaptivity
    /// The JB rate field, 0–15: how fast an adaptive buffer adjusts (RFC 3611 §4.7.6); only
    /// the low four bits are kept.
    public var jitterBufferRate: UInt8

    /// A configuration from its three fields.
    public init(concealment: Concealment, adaptivity: JitterBufferAdaptivity, jitterBufferRate: UInt8 = 0) {
        self.concealment = concealment
        self.adaptivity = adaptivity
        self.jitterBufferRate = jitterBufferRate & 0x0F
    }

    /// Decodes the RX config byte.
    public init(rawValue: UInt8) {
        concealment = Concealment(rawValue: rawValue >> 6) ?? .unspecified
        adaptivity = JitterBufferAdaptivity(rawValue: (rawValue >> 4) & 0x03) ?? .unknown
        jitterBufferRate = rawValue & 0x0F
    }

    /// The RX config byte.
    public var rawValue: UInt8 {
        concealment.rawValue << 6 | adaptivity.rawValue << 4 | (jitterBufferRate & 0x0F)
    }

    /// Everything unspecified (RX config 0).
    public static let unspecified = ReceiverConfiguration(rawValue: 0)
}
