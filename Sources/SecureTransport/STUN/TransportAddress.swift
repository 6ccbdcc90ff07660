/// An IP address and UDP port, as STUN's address attributes and ICE candidates carry them.
public struct TransportAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network order: 4 octets for IPv4, 16 for IPv6.
    public let addressBytes: [UInt8]
    /// The port.
    public let port: UInt16

    /// An address of 4 (IPv4) or 16 (IPv6) octets; nil for any other length.
    public init?(addressBytes: [UInt8], port: UInt16) {
        guard addressBytes.count == 4 || addressBytes.count == 16 else { return nil }
        self.addressBytes = addressBytes
        self.port = port
    }

    /// Whether the address is IPv6.
    public var isIPv6: Bool { addressBytes.count == 16 }

    /// `a.b.c.d:port` or `[x:…]:port` (IPv6 groups in lower-case hex, not compressed).
    public var description: String {
        if isIPv6 {
            let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(addressBytes[$0]) << 8 | UInt16(addressBytes[$0 + 1]), radix: 16) }
            return "[\(groups.joined(separator: ":"))]:\(port)"
        }
        return addressBytes.map(String.init).joined(separator: ".") + ":\(port)"
    }
}
