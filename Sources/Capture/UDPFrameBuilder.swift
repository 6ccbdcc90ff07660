/// Builds Ethernet + IPv4/IPv6 + UDP frames around a UDP payload, so that packets made by this
/// package (RTP, RTCP, …) can be written to a pcap file that tshark reads.
///
/// The Ethernet addresses are fixed, locally administered ones (`02:00:00:00:00:01` →
/// `02:00:00:00:00:02`). IPv4 headers carry TTL 64, DF set, identification 0 (RFC 6864) and a
/// correct header checksum; UDP lengths and checksums (with the pseudo-header, for both IP
/// versions) are correct.
public enum UDPFrameBuilder {
    /// The source MAC address of every frame.
    public static let sourceMAC: [UInt8] = [0x02, 0, 0, 0, 0, 0x01]
    /// The destination MAC address of every frame.
    public static let destinationMAC: [UInt8] = [0x02, 0, 0, 0, 0, 0x02]

    /// The largest UDP payload an IPv4 packet can carry (65 535 − 20 − 8).
    public static let maximumIPv4Payload = 65_507
    /// The largest UDP payload without an IPv6 jumbogram (65 535 − 8).
    public static let maximumIPv6Payload = 65_527

    /// Replaces the contents of `frame` with an Ethernet frame carrying `payload` from `source`
    /// to `destination` (reusing `frame`'s storage, so a loop allocates only once).
    ///
    /// - Throws: ``FrameBuildError`` when the addresses are of different IP versions or the payload
    ///   does not fit in one IP packet.
    public static func ethernetFrame(
        from source: UDPEndpoint,
        to destination: UDPEndpoint,
        payload: UnsafeRawBufferPointer,
        into frame: inout [UInt8]
    ) throws(FrameBuildError) {
        frame.removeAll(keepingCapacity: true)
        frame += destinationMAC
        frame += sourceMAC
        switch (source.address, destination.address) {
        case (.v4(let sourceAddress), .v4(let destinationAddress)):
            guard payload.count <= maximumIPv4Payload else {
                throw .payloadTooLarge(byteCount: payload.count, limit: maximumIPv4Payload)
            }
            frame.appendBigEndian(UInt16(0x0800))
            appendIPv4Header(from: sourceAddress, to: destinationAddress, udpLength: 8 + payload.count, to: &frame)
        case (.v6(let sourceAddress), .v6(let destinationAddress)):
            guard payload.count <= maximumIPv6Payload else {
                throw .payloadTooLarge(byteCount: payload.count, limit: maximumIPv6Payload)
            }
            frame.appendBigEndian(UInt16(0x86DD))
            appendIPv6Header(from: sourceAddress, to: destinationAddress, udpLength: 8 + payload.count, to: &frame)
        default:
            throw .addressFamilyMismatch(source: source.address, destination: destination.address)
        }
        appendUDP(from: source, to: destination, payload: payload, to: &frame)
    }

    /// An Ethernet frame carrying `payload` from `source` to `destination`.
    ///
    /// - Throws: as ``ethernetFrame(from:to:payload:into:)``.
    public static func ethernetFrame(
        from source: UDPEndpoint,
        to destination: UDPEndpoint,
        payload: [UInt8]
    ) throws(FrameBuildError) -> [UInt8] {
        var frame: [UInt8] = []
        let built = payload.withUnsafeBytes { bytes in
            Result { () throws(FrameBuildError) in
                try ethernetFrame(from: source, to: destination, payload: bytes, into: &frame)
            }
        }
        try built.get()
        return frame
    }

    private static func appendIPv4Header(
        from source: IPv4Address, to destination: IPv4Address, udpLength: Int, to frame: inout [UInt8]
    ) {
        let start = frame.count
        frame.append(0x45)  // version 4, header length 5 words
        frame.append(0)  // DSCP/ECN
        frame.appendBigEndian(UInt16(20 + udpLength))
        frame.appendBigEndian(UInt16(0))  // identification
        frame.appendBigEndian(UInt16(0x4000))  // don't fragment, offset 0
        frame.append(64)  // TTL
        frame.append(17)  // UDP
        frame.appendBigEndian(UInt16(0))  // checksum, filled in below
        frame.appendBigEndian(source.rawValue)
        frame.appendBigEndian(destination.rawValue)
        var checksum = InternetChecksum()
        checksum.add(frame[start...])
        frame[start + 10] = UInt8(checksum.value >> 8)
        frame[start + 11] = UInt8(truncatingIfNeeded: checksum.value)
    }

    private static func appendIPv6Header(
        from source: IPv6Address, to destination: IPv6Address, udpLength: Int, to frame: inout [UInt8]
    ) {
        frame.appendBigEndian(UInt32(0x6000_0000))  // version 6, traffic class 0, flow label 0
        frame.appendBigEndian(UInt16(udpLength))
        frame.append(17)  // next header: UDP
        frame.append(64)  // hop limit
        frame.appendBigEndian(source.high)
        frame.appendBigEndian(source.low)
        frame.appendBigEndian(destination.high)
        frame.appendBigEndian(destination.low)
    }

    /// Appends the UDP header and payload; the checksum covers the RFC 768 / RFC 8200 pseudo-header.
    private static func appendUDP(
        from source: UDPEndpoint, to destination: UDPEndpoint, payload: UnsafeRawBufferPointer, to frame: inout [UInt8]
    ) {
        let udpLength = UInt16(8 + payload.count)
        var checksum = InternetChecksum()
        checksum.add(source.address)
        checksum.add(destination.address)
        checksum.add(UInt16(17))
        checksum.add(udpLength)
        checksum.add(source.port)
        checksum.add(destination.port)
        checksum.add(udpLength)
        checksum.add(payload)
        // A computed zero is sent as all ones: zero means "no checksum" (RFC 768).
        let value = checksum.value == 0 ? 0xFFFF : checksum.value
        frame.appendBigEndian(source.port)
        frame.appendBigEndian(destination.port)
        frame.appendBigEndian(udpLength)
        frame.appendBigEndian(value)
        frame += payload
    }
}

/// A frame could not be built from the given endpoints and payload.
public enum FrameBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source and destination are not both IPv4 or both IPv6.
    case addressFamilyMismatch(source: IPAddress, destination: IPAddress)
    /// The payload does not fit in one IP packet.
    case payloadTooLarge(byteCount: Int, limit: Int)

    /// What was wrong, with the values involved.
    public var description: String {
        switch self {
        case .addressFamilyMismatch(let source, let destination):
            "cannot build a UDP frame from \(source) to \(destination): the IP versions differ"
        case .payloadTooLarge(let byteCount, let limit):
            "a UDP payload of \(byteCount) bytes does not fit in one IP packet (at most \(limit))"
        }
    }
}

extension [UInt8] {
    /// Appends `value` in network byte order.
    mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.bigEndian) { self += $0 }
    }
}
