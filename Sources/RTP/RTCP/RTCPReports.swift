/// The sender-information section of an SR (RFC 3550 §6.4.1).
public struct RTCPSenderInfo: Hashable, Sendable {
    /// The wall-clock time when the report was sent.
    public var ntpTimestamp: NTPTimestamp
    /// The same instant in the RTP timestamp units of the sender's media.
    public var rtpTimestamp: RTPTimestamp
    /// RTP packets sent since the start of transmission.
    public var packetCount: UInt32
    /// Payload octets sent since the start of transmission.
    public var octetCount: UInt32

    /// The encoded size of the section.
    public static let byteCount = 20

    /// Collects the section's fields.
    public init(ntpTimestamp: NTPTimestamp, rtpTimestamp: RTPTimestamp, packetCount: UInt32, octetCount: UInt32) {
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
    }

    func write(to writer: inout ByteWriter) throws(RTPError) {
        try writer.write(ntpTimestamp.seconds)
        try writer.write(ntpTimestamp.fraction)
        try writer.write(rtpTimestamp.rawValue)
        try writer.write(packetCount)
        try writer.write(octetCount)
    }
}

/// The report blocks of an SR or RR, read in place.
public struct RTCPReportBlocks: RandomAccessCollection {
    let bytes: UnsafeRawBufferPointer

    /// The first index, 0.
    public var startIndex: Int { 0 }
    /// The number of blocks.
    public var endIndex: Int { bytes.count / RTCPReportBlock.byteCount }
    /// The block at `position`.
    public subscript(position: Int) -> RTCPReportBlock {
        precondition(indices.contains(position), "report block index out of range")
        return RTCPReportBlock(validated: bytes, at: position * RTCPReportBlock.byteCount)
    }
}

/// A sender report (RFC 3550 §6.4.1), read in place.
public struct RTCPSenderReport {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        try packet.require(8 + RTCPSenderInfo.byteCount + Int(packet.count) * RTCPReportBlock.byteCount, at: 0)
        self.packet = packet
    }

    /// The sender's SSRC.
    public var ssrc: UInt32 { packet.bytes.uint32(at: 4) }
    /// The sender information.
    public var senderInfo: RTCPSenderInfo {
        let bytes = packet.bytes
        return RTCPSenderInfo(
            ntpTimestamp: NTPTimestamp(seconds: bytes.uint32(at: 8), fraction: bytes.uint32(at: 12)),
            rtpTimestamp: RTPTimestamp(bytes.uint32(at: 16)),
            packetCount: bytes.uint32(at: 20),
            octetCount: bytes.uint32(at: 24)
        )
    }
    /// The reception report blocks.
    public var reportBlocks: RTCPReportBlocks {
        RTCPReportBlocks(bytes: packet.bytes.slice(28, 28 + Int(packet.count) * RTCPReportBlock.byteCount))
    }
    /// Profile-specific extension bytes after the report blocks (usually empty).
    public var profileExtension: UnsafeRawBufferPointer {
        packet.bytes.slice(28 + Int(packet.count) * RTCPReportBlock.byteCount, packet.bytes.count)
    }
}

/// A receiver report (RFC 3550 §6.4.2), read in place.
public struct RTCPReceiverReport {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        try packet.require(8 + Int(packet.count) * RTCPReportBlock.byteCount, at: 0)
        self.packet = packet
    }

    /// The reporter's SSRC.
    public var ssrc: UInt32 { packet.bytes.uint32(at: 4) }
    /// The reception report blocks.
    public var reportBlocks: RTCPReportBlocks {
        RTCPReportBlocks(bytes: packet.bytes.slice(8, 8 + Int(packet.count) * RTCPReportBlock.byteCount))
    }
    /// Profile-specific extension bytes after the report blocks (usually empty).
    public var profileExtension: UnsafeRawBufferPointer {
        packet.bytes.slice(8 + Int(packet.count) * RTCPReportBlock.byteCount, packet.bytes.count)
    }
}
