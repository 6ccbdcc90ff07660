import QualityMetrics
import PlayoutLab
/// What Wireshark 4.0's RTP analysis noticed about one packet (the `STAT_FLAG_*` bits of
/// `ui/tap-rtp-analysis.h`), as ``WiresharkRTPStreamStatistics/record(arrivalNanoseconds:sequenceNumber:timestamp:payloadType:marker:clock:)``
/// returns them.
///
/// Only packets with none of ``first``, ``marker``, ``comfortNoise``, ``followsComfortNoise``
/// and ``wrongTimestamp`` count towards the delta and jitter figures; a stream gets tshark's
/// "Problems" mark when any of its packets has ``wrongSequence`` or ``wrongTimestamp``.
public struct WiresharkPacketFlags: OptionSet, Sendable, Hashable {
    /// The bit pattern, one bit per flag.
    public let rawValue: UInt16

    /// Flags from their bit pattern.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The stream's first packet.
    public static let first = WiresharkPacketFlags(rawValue: 1 << 0)
    /// The RTP marker bit was set (a talkspurt or frame start): Wireshark leaves the packet out
    /// of the delta and jitter figures.
    public static let marker = WiresharkPacketFlags(rawValue: 1 << 1)
    /// The sequence number was not the previous in-order one plus one: lost packets before it,
    /// or it is late or a duplicate.
    public static let wrongSequence = WiresharkPacketFlags(rawValue: 1 << 2)
    /// The payload type differs from the previous packet's.
    public static let payloadTypeChange = WiresharkPacketFlags(rawValue: 1 << 3)
    /// The payload type is comfort noise (13, or the old 19).
    public static let comfortNoise = WiresharkPacketFlags(rawValue: 1 << 4)
    /// The previous packet was comfort noise.
    public static let followsComfortNoise = WiresharkPacketFlags(rawValue: 1 << 5)
    /// The payload type differs from the last one that was not comfort noise.
    public static let regularPayloadTypeChange = WiresharkPacketFlags(rawValue: 1 << 6)
    /// The RTP timestamp lies before the stream's first timestamp (by Wireshark's wrap rule).
    public static let wrongTimestamp = WiresharkPacketFlags(rawValue: 1 << 7)
    /// The payload is an RFC 4733 telephone event, for which no jitter is computed.
    public static let telephoneEvent = WiresharkPacketFlags(rawValue: 1 << 8)
}
