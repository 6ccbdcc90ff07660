/// RTCP packet types (RFC 3550 §12.1, RFC 4585, RFC 3611).
public enum RTCPPacketType {
    /// Sender report.
    public static let senderReport: UInt8 = 200
    /// Receiver report.
    public static let receiverReport: UInt8 = 201
    /// Source description.
    public static let sourceDescription: UInt8 = 202
    /// Goodbye.
    public static let goodbye: UInt8 = 203
    /// Application-defined.
    public static let application: UInt8 = 204
    /// Transport-layer feedback (RFC 4585, AVPF).
    public static let transportFeedback: UInt8 = 205
    /// Payload-specific feedback (RFC 4585, AVPF).
    public static let payloadFeedback: UInt8 = 206
    /// Extended report (RFC 3611).
    public static let extendedReport: UInt8 = 207
}

/// One packet of an RTCP compound packet, decoded by type.
public enum RTCPPacket {
    /// A sender report (SR).
    case senderReport(RTCPSenderReport)
    /// A receiver report (RR).
    case receiverReport(RTCPReceiverReport)
    /// A source description (SDES).
    case sourceDescription(RTCPSourceDescription)
    /// A goodbye (BYE).
    case goodbye(RTCPGoodbye)
    /// An application-defined packet (APP).
    case application(RTCPApplicationPacket)
    /// An extended report (XR).
    case extendedReport(RTCPExtendedReport)
    /// Any other type, AVPF feedback (205, 206) included, left undecoded.
    case other(RTCPOtherPacket)
}

/// A packet of a type this module does not decode: its header fields and body, in place.
public struct RTCPOtherPacket {
    /// The packet type (205 and 206 are AVPF feedback).
    public let packetType: UInt8
    /// The 5-bit count field (the feedback message type for AVPF).
    public let count: UInt8
    /// The packet after its 4-byte header, padding excluded.
    public let body: UnsafeRawBufferPointer
}

/// Reads the packets of an RTCP compound packet one by one, in place (RFC 3550 §6.1, A.2).
///
/// Each call to ``next()`` checks one packet's header (version 2, a length inside the
/// compound, padding only on the last packet) and its type-specific structure, and throws
/// ``RTPError`` with the byte offset of the first problem. The compound need not start with
/// SR or RR, so reduced-size RTCP (RFC 5506) and captures cut mid-stream read too.
public struct RTCPCompoundReader {
    private let bytes: UnsafeRawBufferPointer
    /// Where the next packet starts.
    public private(set) var offset = 0

    /// A reader at the first packet of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next packet, or `nil` after the last one.
    public mutating func next() throws(RTPError) -> RTCPPacket? {
        guard offset < bytes.count else { return nil }
        let start = offset
        try bytes.require(4, at: start)
        let first = bytes.uint8(at: start)
        let version = first >> 6
        guard version == 2 else { throw RTPError(.unsupportedVersion(version), at: start) }
        let length = (Int(bytes.uint16(at: start + 2)) + 1) * 4
        try bytes.require(length, at: start)
        let end = start + length
        var contentEnd = end
        if first & 0x20 != 0 {
            guard end == bytes.count else { throw RTPError(.paddingBeforeLastPacket, at: start) }
            let padding = Int(bytes.uint8(at: end - 1))
            guard padding > 0, padding <= length - 4 else {
                throw RTPError(.invalidPadding(count: padding, available: length - 4), at: end - 1)
            }
            contentEnd -= padding
        }
        offset = end
        let packet = RTCPPacketBytes(bytes: bytes.slice(start, contentEnd), base: start)
        switch bytes.uint8(at: start + 1) {
        case RTCPPacketType.senderReport: return .senderReport(try RTCPSenderReport(packet))
        case RTCPPacketType.receiverReport: return .receiverReport(try RTCPReceiverReport(packet))
        case RTCPPacketType.sourceDescription: return .sourceDescription(try RTCPSourceDescription(packet))
        case RTCPPacketType.goodbye: return .goodbye(try RTCPGoodbye(packet))
        case RTCPPacketType.application: return .application(try RTCPApplicationPacket(packet))
        case RTCPPacketType.extendedReport: return .extendedReport(try RTCPExtendedReport(packet))
        case let type: return .other(RTCPOtherPacket(packetType: type, count: packet.count, body: packet.body))
        }
    }
}

/// A validated RTCP compound packet whose packets can be iterated with `for … in`.
///
/// The initializer reads every packet once, so iterating afterwards cannot fail.
public struct RTCPCompoundPacket: Sequence {
    /// The compound, as given.
    public let bytes: UnsafeRawBufferPointer

    /// Validates every packet of `bytes`; throws the first problem found.
    public init(_ bytes: UnsafeRawBufferPointer) throws(RTPError) {
        guard !bytes.isEmpty else { throw RTPError(.truncated(needed: 4, available: 0), at: 0) }
        var reader = RTCPCompoundReader(bytes)
        while try reader.next() != nil {}
        self.bytes = bytes
    }

    /// Iterates the packets.
    public func makeIterator() -> Iterator {
        Iterator(reader: RTCPCompoundReader(bytes))
    }

    /// Yields the packets of a validated compound in order.
    public struct Iterator: IteratorProtocol {
        var reader: RTCPCompoundReader

        /// The next packet, or `nil` after the last.
        public mutating func next() -> RTCPPacket? {
            try? reader.next()
        }
    }
}

/// One packet's bytes (header included, padding excluded) and its offset in the compound.
struct RTCPPacketBytes {
    let bytes: UnsafeRawBufferPointer
    let base: Int

    /// The 5-bit count field.
    var count: UInt8 { bytes.uint8(at: 0) & 0x1F }
    /// The bytes after the 4-byte header.
    var body: UnsafeRawBufferPointer { bytes.slice(4, bytes.count) }

    /// Throws a truncation error, at the compound offset, unless `count` bytes exist at `offset`.
    func require(_ count: Int, at offset: Int) throws(RTPError) {
        let available = bytes.count - offset
        guard count <= available else {
            throw RTPError(.truncated(needed: count, available: max(available, 0)), at: base + offset)
        }
    }
}
