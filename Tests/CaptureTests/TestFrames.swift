import Capture

/// Frames assembled by hand for the decoder tests, around packets built by ``UDPFrameBuilder``.
enum TestFrames {
    static let ipv4Source = UDPEndpoint(address: .v4(IPv4Address(192, 0, 2, 1)), port: 5004)
    static let ipv4Destination = UDPEndpoint(address: .v4(IPv4Address(198, 51, 100, 7)), port: 40_000)
    static let ipv6Source = UDPEndpoint(address: .v6(IPv6Address(high: 0x2001_0db8_0000_0000, low: 1)), port: 6000)
    static let ipv6Destination = UDPEndpoint(address: .v6(IPv6Address(high: 0x2001_0db8_0000_0001, low: 2)), port: 6002)
    static let payload: [UInt8] = (0..<172).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// An Ethernet + IPv4 + UDP frame carrying ``payload``.
    static func ethernetIPv4() throws -> [UInt8] {
        try UDPFrameBuilder.ethernetFrame(from: ipv4Source, to: ipv4Destination, payload: payload)
    }

    /// An Ethernet + IPv6 + UDP frame carrying ``payload``.
    static func ethernetIPv6() throws -> [UInt8] {
        try UDPFrameBuilder.ethernetFrame(from: ipv6Source, to: ipv6Destination, payload: payload)
    }

    /// The IPv4 packet (no link header) carrying ``payload``.
    static func ipv4Packet() throws -> [UInt8] { Array(try ethernetIPv4().dropFirst(14)) }

    /// The IPv6 packet (no link header) carrying ``payload``.
    static func ipv6Packet() throws -> [UInt8] { Array(try ethernetIPv6().dropFirst(14)) }

    /// An Ethernet frame with VLAN tags of the given types (outermost first) before the IPv4 packet.
    static func vlanTagged(_ tagTypes: [UInt16]) throws -> [UInt8] {
        var frame = Array(try ethernetIPv4().prefix(12))
        for (index, tagType) in tagTypes.enumerated() {
            frame += bigEndian(tagType) + bigEndian(UInt16(100 + index))
        }
        return frame + bigEndian(UInt16(0x0800)) + (try ipv4Packet())
    }

    /// A Linux cooked (SLL) frame: packet type, ARPHRD type, address length, address, protocol.
    static func linuxSLL(protocol etherType: UInt16, hardwareType: UInt16 = 1, packet: [UInt8]) -> [UInt8] {
        bigEndian(UInt16(0)) + bigEndian(hardwareType) + bigEndian(UInt16(6))
            + [2, 0, 0, 0, 0, 1, 0, 0] + bigEndian(etherType) + packet
    }

    /// A Linux cooked v2 (SLL2) frame: protocol, reserved, interface index, ARPHRD type, packet
    /// type, address length, address.
    static func linuxSLL2(protocol etherType: UInt16, hardwareType: UInt16 = 1, packet: [UInt8]) -> [UInt8] {
        bigEndian(etherType) + bigEndian(UInt16(0)) + bigEndian(UInt32(3)) + bigEndian(hardwareType)
            + [4, 6] + [2, 0, 0, 0, 0, 1, 0, 0] + packet
    }

    /// An IPv6 extension header: its type and everything after its next-header byte.
    struct ExtensionHeader {
        var type: UInt8
        var body: [UInt8]

        /// An 8-byte options header (hop-by-hop 0 or destination options 60) holding one PadN option.
        static func options(_ type: UInt8) -> ExtensionHeader {
            ExtensionHeader(type: type, body: [0, 1, 4, 0, 0, 0, 0])
        }

        /// A 24-byte segment routing header (type 4) with one segment and no segments left.
        static let routing = ExtensionHeader(type: 43, body: [2, 4, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16))

        /// A fragment header with a 13-bit offset (in 8-byte units) and the more-fragments flag.
        static func fragment(offset: UInt16, more: Bool) -> ExtensionHeader {
            ExtensionHeader(type: 44, body: [0] + bigEndian(offset << 3 | (more ? 1 : 0)) + [0, 0, 0x12, 0x34])
        }

        /// An authentication header with a 12-byte ICV (24 bytes in all, length field 4).
        static let authentication = ExtensionHeader(type: 51, body: [4] + [UInt8](repeating: 0xAA, count: 22))

        /// An options header whose length field claims `units` more 8-byte units than it has.
        static func overlong(units: UInt8) -> ExtensionHeader {
            ExtensionHeader(type: 60, body: [units, 1, 4, 0, 0, 0, 0])
        }
    }

    /// The IPv6 packet of ``ipv6Packet()`` with `headers` between the fixed header and UDP, the
    /// last header's next-header field set to `finalProtocol`.
    static func ipv6Packet(extensionHeaders headers: [ExtensionHeader], finalProtocol: UInt8 = 17) throws -> [UInt8] {
        let plain = try ipv6Packet()
        var fixed = Array(plain.prefix(40))
        let udp = Array(plain.dropFirst(40))
        var chain: [UInt8] = []
        for (index, header) in headers.enumerated() {
            let next = index + 1 < headers.count ? headers[index + 1].type : finalProtocol
            chain += [next] + header.body
        }
        fixed[6] = headers.first?.type ?? finalProtocol
        fixed.replaceSubrange(4..<6, with: bigEndian(UInt16(chain.count + udp.count)))
        return fixed + chain + udp
    }

    /// `value` in network byte order.
    static func bigEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// Decodes `bytes` as a frame of `linkType` whose wire length is `originalLength` (default: all of it).
    static func decode(_ bytes: [UInt8], as linkType: LinkType, originalLength: Int? = nil) -> Decoded {
        bytes.withUnsafeBytes { view in
            Decoded(CaptureFrame(linkType: linkType, bytes: view, originalLength: originalLength).decodeUDP())
        }
    }

    /// A ``DecodedFrame`` with its payload copied out, so tests can compare it after the bytes are gone.
    enum Decoded: Equatable {
        case datagram(source: UDPEndpoint, destination: UDPEndpoint, payload: [UInt8], declaredLength: Int)
        case skipped(SkipReason)

        init(_ decoded: DecodedFrame) {
            switch decoded {
            case .datagram(let datagram):
                self = .datagram(
                    source: datagram.source, destination: datagram.destination,
                    payload: Array(datagram.payload), declaredLength: datagram.declaredPayloadLength)
            case .skipped(let reason):
                self = .skipped(reason)
            }
        }
    }

    /// What the IPv4 frames above decode to.
    static let ipv4Datagram = Decoded.datagram(
        source: ipv4Source, destination: ipv4Destination, payload: payload, declaredLength: payload.count)
    /// What the IPv6 frames above decode to.
    static let ipv6Datagram = Decoded.datagram(
        source: ipv6Source, destination: ipv6Destination, payload: payload, declaredLength: payload.count)
}
