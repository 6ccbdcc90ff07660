/// Link-layer decoding: from the start of a frame to the start of its IP header.
extension FrameDecoder {
    /// EtherType values the decoder follows.
    private enum EtherType {
        static let ipv4: UInt16 = 0x0800
        static let ipv6: UInt16 = 0x86DD
        static let vlan: UInt16 = 0x8100  // IEEE 802.1Q customer tag
        static let serviceVLAN: UInt16 = 0x88A8  // IEEE 802.1ad service tag (Q-in-Q)
        static let legacyServiceVLAN: UInt16 = 0x9100  // pre-standard Q-in-Q
    }

    /// `ARPHRD_NETLINK`: a Linux cooked frame whose protocol field is a netlink family, not an EtherType.
    private static let netlinkHardwareType: UInt16 = 824

    /// Where the IP header starts and which version it is, for a frame of `linkType`.
    func networkLayer(of linkType: LinkType) throws(Skip) -> NetworkLayer {
        switch linkType {
        case .ethernet:
            try require(14)
            return try network(etherType: uint16(at: 12), at: 14)
        case .linuxSLL:
            // Packet type, ARPHRD type, address length, 8 address bytes, protocol.
            try require(16)
            guard uint16(at: 2) != Self.netlinkHardwareType else { throw Skip(.notIP) }
            return try network(etherType: uint16(at: 14), at: 16)
        case .linuxSLL2:
            // Protocol, reserved, interface index, ARPHRD type, packet type, address length, 8 address bytes.
            try require(20)
            guard uint16(at: 8) != Self.netlinkHardwareType else { throw Skip(.notIP) }
            return try network(etherType: uint16(at: 0), at: 20)
        case .raw, .rawIP:
            try require(1)
            return try network(version: bytes[0] >> 4, at: 0)
        case .ipv4:
            return .ipv4(offset: 0)
        case .ipv6:
            return .ipv6(offset: 0)
        case .null:
            // The address family in the capturing host's byte order; a family fits in 16 bits.
            try require(4)
            let family = UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
            return try network(addressFamily: family > 0xFFFF ? family.byteSwapped : family, at: 4)
        case .loop:
            try require(4)
            return try network(addressFamily: uint32(at: 0), at: 4)
        default:
            throw Skip(.unsupportedLinkType)
        }
    }

    /// Follows any stack of VLAN tags from `etherType` (read just before `offset`) to IPv4 or IPv6.
    private func network(etherType: UInt16, at offset: Int) throws(Skip) -> NetworkLayer {
        var etherType = etherType
        var offset = offset
        while etherType == EtherType.vlan || etherType == EtherType.serviceVLAN
            || etherType == EtherType.legacyServiceVLAN
        {
            // Tag control information, then the next EtherType.
            try require(offset + 4)
            etherType = uint16(at: offset + 2)
            offset += 4
        }
        switch etherType {
        case EtherType.ipv4: return .ipv4(offset: offset)
        case EtherType.ipv6: return .ipv6(offset: offset)
        default: throw Skip(.notIP)
        }
    }

    /// IPv4 or IPv6 by the version nibble of a raw IP frame.
    private func network(version: UInt8, at offset: Int) throws(Skip) -> NetworkLayer {
        switch version {
        case 4: return .ipv4(offset: offset)
        case 6: return .ipv6(offset: offset)
        default: throw Skip(.notIP)
        }
    }

    /// IPv4 or IPv6 by a BSD address family: `AF_INET` is 2 everywhere, `AF_INET6` is 10 (Linux),
    /// 24 (NetBSD, OpenBSD), 28 (FreeBSD) or 30 (Darwin).
    private func network(addressFamily: UInt32, at offset: Int) throws(Skip) -> NetworkLayer {
        switch addressFamily {
        case 2: return .ipv4(offset: offset)
        case 10, 24, 28, 30: return .ipv6(offset: offset)
        default: throw Skip(.notIP)
        }
    }
}
