/// What a datagram on a shared media socket is, by its first bytes.
public enum DatagramKind: Sendable, Equatable {
    /// STUN (RFC 7983: first byte 0–3).
    case stun
    /// ZRTP (first byte 16–19).
    case zrtp
    /// DTLS (first byte 20–63).
    case dtls
    /// TURN ChannelData (first byte 64–79).
    case turnChannel
    /// RTP (first byte 128–191, second byte outside 192–223).
    case rtp
    /// RTCP (first byte 128–191, second byte 192–223).
    case rtcp
    /// Anything else, an empty datagram included.
    case unknown
}

/// Sorts datagrams that share one socket: RFC 7983's first-byte ranges, then RFC 5761 §4 for
/// RTP against RTCP.
public enum DatagramClassifier {
    /// The kind of `datagram`.
    ///
    /// RFC 5761 §4 tells RTCP from RTP by the second octet: RTCP packet types 192–223 occupy
    /// the place of the marker bit and payload types 64–95, which RTP multiplexed with RTCP
    /// must not use. A one-byte datagram in the RTP range is `unknown`.
    @inlinable
    public static func classify(_ datagram: UnsafeRawBufferPointer) -> DatagramKind {
        guard let first = datagram.first else { return .unknown }
        switch first {
        case 0...3: return .stun
        case 16...19: return .zrtp
        case 20...63: return .dtls
        case 64...79: return .turnChannel
        case 128...191:
            guard datagram.count >= 2 else { return .unknown }
            return (192...223).contains(datagram[1]) ? .rtcp : .rtp
        default: return .unknown
        }
    }
}
