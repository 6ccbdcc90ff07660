import QualityMetrics
import PlayoutLab
import RTP
import Capture

/// One RTP stream as the analyzer (and Wireshark) tells streams apart: the sender's and
/// receiver's UDP endpoints and the SSRC.
public struct RTPStreamKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The sender's address and port.
    public var source: UDPEndpoint
    /// The receiver's address and port.
    public var destination: UDPEndpoint
    /// The synchronization source identifier.
    public var ssrc: UInt32

    /// A key from its parts.
    public init(source: UDPEndpoint, destination: UDPEndpoint, ssrc: UInt32) {
        self.source = source
        self.destination = destination
        self.ssrc = ssrc
    }

    /// The SSRC as eight upper-case hex digits with `0x`, as tshark prints it.
    public var ssrcHex: String {
        let digits = String(ssrc, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// `192.0.2.1:5004 → 192.0.2.2:6000 SSRC 0x0000ABCD`.
    public var description: String {
        "\(source) → \(destination) SSRC \(ssrcHex)"
    }

    /// Orders by source, destination, then SSRC.
    public static func < (lhs: RTPStreamKey, rhs: RTPStreamKey) -> Bool {
        (lhs.source, lhs.destination, lhs.ssrc) < (rhs.source, rhs.destination, rhs.ssrc)
    }

    /// Every field, an IPv4 key packed in two words (the analyzer looks a key up per packet,
    /// and each word fed to the hasher is a call).
    public func hash(into hasher: inout Hasher) {
        guard case .v4(let from) = source.address, case .v4(let to) = destination.address else {
            hasher.combine(source)
            hasher.combine(destination)
            hasher.combine(ssrc)
            return
        }
        hasher.combine(UInt64(from.rawValue) << 32 | UInt64(to.rawValue))
        hasher.combine(UInt64(source.port) << 48 | UInt64(destination.port) << 32 | UInt64(ssrc))
    }
}

/// The header fields of one RTP packet that the stream analysis uses, copied out of the
/// packet so that a few can wait while a heuristic stream is being confirmed.
struct RTPPacketSummary {
    var frameNumber: Int
    var arrivalNanoseconds: Int64
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var payloadType: UInt8
    var marker: Bool
    var payloadLength: Int
    /// The first four payload bytes (big-endian, zero-padded): a telephone-event payload.
    var leadingPayload: UInt32
    /// Whether the payload is plaintext: not an SRTP payload that failed to decrypt.
    var payloadIsReadable = true
    /// Whether the payload is an RFC 4733 telephone event, as the stream's analysis found
    /// (``StreamAnalysis``): the replay gives it to its buffer.
    var isTelephoneEvent = false

    init(_ packet: RTPPacket, frameNumber: Int, arrivalNanoseconds: Int64) {
        self.frameNumber = frameNumber
        self.arrivalNanoseconds = arrivalNanoseconds
        sequenceNumber = packet.sequenceNumber.rawValue
        timestamp = packet.timestamp.rawValue
        payloadType = packet.payloadType
        marker = packet.marker
        let payload = packet.payload
        payloadLength = payload.count
        var leading: UInt32 = 0
        for index in 0..<4 {
            leading = leading << 8 | UInt32(index < payload.count ? payload[index] : 0)
        }
        leadingPayload = leading
    }

    /// The telephone-event payload in the first four bytes, when the payload is that long.
    var telephoneEvent: DTMFEventPayload? {
        guard payloadIsReadable, payloadLength >= DTMFEventPayload.byteCount else { return nil }
        return DTMFEventPayload(
            event: UInt8(truncatingIfNeeded: leadingPayload >> 24),
            isEnd: leadingPayload & 0x0080_0000 != 0,
            volume: UInt8(truncatingIfNeeded: leadingPayload >> 16) & 0x3F,
            duration: UInt16(truncatingIfNeeded: leadingPayload))
    }
}
