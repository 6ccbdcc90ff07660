/// What the frame decoder made of one frame: a UDP datagram, or the reason it was skipped.
public enum DecodedFrame {
    /// The frame carries a UDP datagram (see ``UDPDatagram``; its payload points into the frame).
    case datagram(UDPDatagram)
    /// The frame was not decoded to a UDP datagram, for this reason.
    case skipped(SkipReason)
}

/// Why a frame did not yield a UDP datagram. Every reason is counted in ``CaptureStatistics``.
public enum SkipReason: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The capture's link type is not one the decoder knows (see ``LinkType/isDecodable``).
    case unsupportedLinkType
    /// The link layer carries something other than IPv4 or IPv6 (ARP, LLC, LLDP, …).
    case notIP
    /// An IP packet whose payload is not UDP (TCP, ICMP, ESP, …), or has no payload.
    case notUDP
    /// An IPv4 fragment (MF set or a non-zero offset) or an IPv6 fragment. Fragments are not
    /// reassembled, and a first fragment is never misread as a whole UDP datagram.
    case fragment
    /// The captured bytes end before the link, IP or UDP header does.
    case truncated
    /// An IPv4 header that contradicts itself or the frame: wrong version, header length
    /// below 20, total length below the header length or beyond the frame.
    case malformedIPv4
    /// An IPv6 header or extension header that contradicts itself or the frame: wrong version,
    /// payload length beyond the frame, an extension header running past the payload.
    case malformedIPv6
    /// A UDP header whose length field is below 8 or beyond the IP payload, or an IP payload too
    /// short for a UDP header.
    case malformedUDP

    /// A short phrase naming the reason.
    public var description: String {
        switch self {
        case .unsupportedLinkType: "unsupported link type"
        case .notIP: "not IP"
        case .notUDP: "not UDP"
        case .fragment: "IP fragment"
        case .truncated: "headers cut short"
        case .malformedIPv4: "malformed IPv4 header"
        case .malformedIPv6: "malformed IPv6 header"
        case .malformedUDP: "malformed UDP header"
        }
    }
}

/// A UDP datagram found in a frame. Its ``payload`` points into the frame's bytes and is valid
/// exactly as long as they are.
public struct UDPDatagram {
    /// The number of the frame that carried it (from 1, as tshark's `frame.number`).
    public var frameNumber: Int
    /// When its frame was captured.
    public var timestamp: CaptureTimestamp
    /// The sender's address and port.
    public var source: UDPEndpoint
    /// The receiver's address and port.
    public var destination: UDPEndpoint
    /// The UDP payload as captured: all of it, or less when ``isCut``.
    public var payload: UnsafeRawBufferPointer
    /// The payload length the UDP header declares (its length field minus 8).
    public var declaredPayloadLength: Int

    /// A datagram; the frame decoder makes these, tests and peers may too.
    public init(
        frameNumber: Int,
        timestamp: CaptureTimestamp,
        source: UDPEndpoint,
        destination: UDPEndpoint,
        payload: UnsafeRawBufferPointer,
        declaredPayloadLength: Int
    ) {
        self.frameNumber = frameNumber
        self.timestamp = timestamp
        self.source = source
        self.destination = destination
        self.payload = payload
        self.declaredPayloadLength = declaredPayloadLength
    }

    /// Whether the capture's snapshot length cut the payload short (the headers are complete).
    public var isCut: Bool { payload.count < declaredPayloadLength }
}
