/// A goodbye packet (RFC 3550 §6.6), read in place.
public struct RTCPGoodbye {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        let reasonOffset = 4 + Int(packet.count) * 4
        try packet.require(reasonOffset - 4, at: 4)
        if reasonOffset < packet.bytes.count {
            try packet.require(1 + Int(packet.bytes.uint8(at: reasonOffset)), at: reasonOffset)
        }
        self.packet = packet
    }

    /// The sources leaving.
    public var ssrcs: SourceList {
        SourceList(bytes: packet.bytes.slice(4, 4 + Int(packet.count) * 4))
    }

    /// The reason for leaving, as UTF-8 bytes in place (empty when absent).
    public var reason: UnsafeRawBufferPointer {
        let offset = 4 + Int(packet.count) * 4
        guard offset < packet.bytes.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return packet.bytes.slice(offset + 1, offset + 1 + Int(packet.bytes.uint8(at: offset)))
    }

    /// The reason decoded as UTF-8, or `nil` when absent; allocates a string.
    public var reasonText: String? {
        let reason = self.reason
        return reason.isEmpty ? nil : String(decoding: reason, as: UTF8.self)
    }
}

/// An application-defined packet (RFC 3550 §6.7), read in place.
public struct RTCPApplicationPacket {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        try packet.require(8, at: 4)
        self.packet = packet
    }

    /// The 5-bit subtype.
    public var subtype: UInt8 { packet.count }
    /// The sender's SSRC.
    public var ssrc: UInt32 { packet.bytes.uint32(at: 4) }
    /// The four-character name, as a big-endian 32-bit value.
    public var name: UInt32 { packet.bytes.uint32(at: 8) }
    /// The four-character name as text (ASCII expected); allocates a string.
    public var nameText: String { String(decoding: packet.bytes.slice(8, 12), as: UTF8.self) }
    /// The application-dependent data.
    public var data: UnsafeRawBufferPointer { packet.bytes.slice(12, packet.bytes.count) }
}
