/// An IPv4 or IPv6 address.
public enum IPAddress: Hashable, Comparable, Sendable, LosslessStringConvertible {
    /// An IPv4 address.
    case v4(IPv4Address)
    /// An IPv6 address.
    case v6(IPv6Address)

    /// Parses IPv4 dotted-quad or IPv6 text (see ``IPv4Address/init(_:)`` and ``IPv6Address/init(_:)``).
    public init?(_ description: String) {
        if let address = IPv4Address(description) {
            self = .v4(address)
        } else if let address = IPv6Address(description) {
            self = .v6(address)
        } else {
            return nil
        }
    }

    /// The textual form: dotted quad for IPv4, RFC 5952 for IPv6.
    public var description: String {
        switch self {
        case .v4(let address): address.description
        case .v6(let address): address.description
        }
    }
}

/// One end of a UDP flow: an address and a port.
public struct UDPEndpoint: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The IP address.
    public var address: IPAddress
    /// The UDP port.
    public var port: UInt16

    /// An endpoint from an address and a port.
    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// `192.0.2.1:5004` for IPv4, `[2001:db8::1]:5004` for IPv6.
    public var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }

    /// Orders endpoints by address, then port.
    public static func < (lhs: UDPEndpoint, rhs: UDPEndpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}
