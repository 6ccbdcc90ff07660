extension CaptureFrame {
    /// Decodes the frame down to UDP: link layer (see ``LinkType``), stacked 802.1Q/802.1ad VLAN
    /// tags, IPv4 or IPv6 (walking IPv6 extension headers), then the UDP header.
    ///
    /// Every length is checked before it is read; anything else comes back as
    /// ``DecodedFrame/skipped(_:)`` with its ``SkipReason``. IP fragments are reported as
    /// ``SkipReason/fragment`` and never reassembled. A datagram whose payload the snapshot length
    /// cut short is still returned, with ``UDPDatagram/isCut`` set. Allocates nothing.
    public func decodeUDP() -> DecodedFrame {
        let decoder = FrameDecoder(bytes: bytes, wireLength: max(originalLength, bytes.count))
        do throws(Skip) {
            let packet =
                switch try decoder.networkLayer(of: linkType) {
                case .ipv4(let offset): try decoder.ipv4Payload(at: offset)
                case .ipv6(let offset): try decoder.ipv6Payload(at: offset)
                }
            let header = try decoder.udpHeader(in: packet)
            return .datagram(
                UDPDatagram(
                    frameNumber: number,
                    timestamp: timestamp,
                    source: UDPEndpoint(address: packet.source, port: header.sourcePort),
                    destination: UDPEndpoint(address: packet.destination, port: header.destinationPort),
                    payload: header.payload,
                    declaredPayloadLength: header.declaredPayloadLength
                ))
        } catch {
            return .skipped(error.reason)
        }
    }
}

/// A skip, thrown inside the decoder so each layer can stop with one `throw`.
struct Skip: Error {
    let reason: SkipReason

    init(_ reason: SkipReason) {
        self.reason = reason
    }
}

/// The network-layer protocol a link layer carries and where its header starts.
enum NetworkLayer {
    case ipv4(offset: Int)
    case ipv6(offset: Int)
}

/// Reads headers from one frame's bytes. Offsets count from the start of the frame;
/// `wireLength` is the frame's length on the wire, which may exceed the captured bytes.
struct FrameDecoder {
    let bytes: UnsafeRawBufferPointer
    let wireLength: Int

    /// Throws ``SkipReason/truncated`` unless the captured bytes reach `end`.
    func require(_ end: Int) throws(Skip) {
        guard end <= bytes.count else { throw Skip(.truncated) }
    }

    /// The big-endian 16-bit value at `offset`; the caller has checked the length.
    func uint16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The big-endian 32-bit value at `offset`; the caller has checked the length.
    func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The 64-bit value at `offset` in network order; the caller has checked the length.
    func uint64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
