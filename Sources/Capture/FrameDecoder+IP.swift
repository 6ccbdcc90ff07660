/// The addresses of an IP packet carrying UDP and where its payload lies in the frame.
struct IPPayload {
    let source: IPAddress
    let destination: IPAddress
    /// The offset of the first payload byte.
    let start: Int
    /// The offset just past the payload as the IP header declares it (may exceed the captured bytes).
    let end: Int
}

/// IPv4 and IPv6 decoding: from the IP header to the UDP header.
extension FrameDecoder {
    /// The IP protocol number of UDP.
    private static let udpProtocol: UInt8 = 17

    /// The UDP payload of the IPv4 packet at `start`.
    func ipv4Payload(at start: Int) throws(Skip) -> IPPayload {
        try require(start + 20)
        let versionAndHeaderLength = bytes[start]
        let headerLength = Int(versionAndHeaderLength & 0x0F) * 4
        let totalLength = Int(uint16(at: start + 2))
        guard versionAndHeaderLength >> 4 == 4, headerLength >= 20, totalLength >= headerLength,
            totalLength <= wireLength - start
        else { throw Skip(.malformedIPv4) }
        try require(start + headerLength)
        // Flags and fragment offset: more-fragments bit or a non-zero offset (DF does not matter).
        guard uint16(at: start + 6) & 0x3FFF == 0 else { throw Skip(.fragment) }
        guard bytes[start + 9] == Self.udpProtocol else { throw Skip(.notUDP) }
        return IPPayload(
            source: .v4(IPv4Address(rawValue: uint32(at: start + 12))),
            destination: .v4(IPv4Address(rawValue: uint32(at: start + 16))),
            start: start + headerLength,
            end: start + totalLength
        )
    }

    /// The UDP payload of the IPv6 packet at `start`, after any extension headers.
    func ipv6Payload(at start: Int) throws(Skip) -> IPPayload {
        try require(start + 40)
        let end = start + 40 + Int(uint16(at: start + 4))
        guard bytes[start] >> 4 == 6, end <= wireLength else { throw Skip(.malformedIPv6) }
        var nextHeader = bytes[start + 6]
        var offset = start + 40
        while nextHeader != Self.udpProtocol {
            let length: Int
            switch nextHeader {
            case 44:
                // Fragment: next header, reserved, 13-bit offset + 2 reserved bits + M flag, identification.
                length = 8
                try requireExtensionHeader(at: offset, length: length, payloadEnd: end)
                // A fragment header with offset 0 and M clear is an atomic fragment (RFC 6946): a whole packet.
                guard uint16(at: offset + 2) & 0xFFF9 == 0 else { throw Skip(.fragment) }
            case 0, 43, 60, 135, 139, 140, 51:
                // Hop-by-hop, routing, destination options, mobility, HIP, shim6: length in 8-byte
                // units past the first 8; authentication header (51): in 4-byte units past the first 8.
                try requireExtensionHeader(at: offset, length: 2, payloadEnd: end)
                let units = Int(bytes[offset + 1])
                length = nextHeader == 51 ? (units + 2) * 4 : (units + 1) * 8
                try requireExtensionHeader(at: offset, length: length, payloadEnd: end)
            default:
                throw Skip(.notUDP)
            }
            nextHeader = bytes[offset]
            offset += length
        }
        return IPPayload(
            source: .v6(IPv6Address(high: uint64(at: start + 8), low: uint64(at: start + 16))),
            destination: .v6(IPv6Address(high: uint64(at: start + 24), low: uint64(at: start + 32))),
            start: offset,
            end: end
        )
    }

    /// Checks that an extension header lies within the declared payload and the captured bytes.
    private func requireExtensionHeader(at offset: Int, length: Int, payloadEnd: Int) throws(Skip) {
        guard offset + length <= payloadEnd else { throw Skip(.malformedIPv6) }
        try require(offset + length)
    }
}
