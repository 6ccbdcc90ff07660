/// Counts of what a pass over a capture found: frames, UDP datagrams and each kind of skip.
public struct CaptureStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Frames read.
    public var frames = 0
    /// Frames that yielded a UDP datagram (including those in ``cutDatagrams``).
    public var udpDatagrams = 0
    /// UDP datagrams whose payload the capture's snapshot length cut short.
    public var cutDatagrams = 0
    /// Frames skipped because of their link type.
    public var unsupportedLinkType = 0
    /// Frames carrying neither IPv4 nor IPv6.
    public var notIP = 0
    /// IP packets that are not UDP.
    public var notUDP = 0
    /// IP fragments (not reassembled).
    public var fragments = 0
    /// Frames whose headers were cut short.
    public var truncated = 0
    /// Frames with a malformed IPv4 header.
    public var malformedIPv4 = 0
    /// Frames with a malformed IPv6 header.
    public var malformedIPv6 = 0
    /// Frames with a malformed UDP header.
    public var malformedUDP = 0

    /// Empty statistics.
    public init() {}

    /// Frames that did not yield a UDP datagram.
    public var skipped: Int { frames - udpDatagrams }

    /// The number of frames skipped for `reason`.
    public subscript(reason: SkipReason) -> Int {
        get {
            switch reason {
            case .unsupportedLinkType: unsupportedLinkType
            case .notIP: notIP
            case .notUDP: notUDP
            case .fragment: fragments
            case .truncated: truncated
            case .malformedIPv4: malformedIPv4
            case .malformedIPv6: malformedIPv6
            case .malformedUDP: malformedUDP
            }
        }
        set {
            switch reason {
            case .unsupportedLinkType: unsupportedLinkType = newValue
            case .notIP: notIP = newValue
            case .notUDP: notUDP = newValue
            case .fragment: fragments = newValue
            case .truncated: truncated = newValue
            case .malformedIPv4: malformedIPv4 = newValue
            case .malformedIPv6: malformedIPv6 = newValue
            case .malformedUDP: malformedUDP = newValue
            }
        }
    }

    /// Counts one frame and what the decoder made of it.
    public mutating func count(_ decoded: DecodedFrame) {
        frames += 1
        switch decoded {
        case .datagram(let datagram):
            udpDatagrams += 1
            if datagram.isCut { cutDatagrams += 1 }
        case .skipped(let reason):
            self[reason] += 1
        }
    }

    /// `frames=…, udp=…` followed by every non-zero skip count.
    public var description: String {
        var parts = ["frames=\(frames)", "udp=\(udpDatagrams)"]
        if cutDatagrams > 0 { parts.append("cut udp=\(cutDatagrams)") }
        for reason in SkipReason.allCases where self[reason] > 0 {
            parts.append("\(reason)=\(self[reason])")
        }
        return parts.joined(separator: ", ")
    }
}
