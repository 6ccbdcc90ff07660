import Glibc

/// An IPv4 or IPv6 address with a UDP port, as a plain value that never allocates (it is
/// made for every received datagram).
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The 16 address bytes in network order; an IPv4 address fills only the first 4.
    private let bytes: (UInt64, UInt64)
    /// Whether this is an IPv6 address.
    public let isIPv6: Bool
    /// The UDP port.
    public let port: UInt16

    /// The address bytes: 4 for IPv4, 16 for IPv6, in network order.
    public var addressBytes: [UInt8] {
        withUnsafeBytes(of: bytes) { Array($0.prefix(isIPv6 ? 16 : 4)) }
    }

    /// Whether both name the same family, address and port.
    public static func == (left: SocketAddress, right: SocketAddress) -> Bool {
        left.bytes == right.bytes && left.isIPv6 == right.isIPv6 && left.port == right.port
    }

    /// Hashes the family, address and port.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
        hasher.combine(isIPv6)
        hasher.combine(port)
    }

    /// Parses a literal IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`, with or without brackets) address.
    /// - Throws: ``TransportError`` naming the text when it is not a literal address.
    public init(host: String, port: UInt16) throws(TransportError) {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self.init(raw: v4, isIPv6: false, port: port)
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            self.init(raw: v6, isIPv6: true, port: port)
        } else {
            throw TransportError(operation: "parse address", subject: "'\(host)'", message: "not a literal IPv4 or IPv6 address")
        }
    }

    /// The IPv4 loopback address 127.0.0.1 with `port` (0 lets the system choose when binding).
    public static func loopbackIPv4(port: UInt16 = 0) -> SocketAddress {
        var address = in_addr()
        address.s_addr = UInt32(0x7F00_0001).bigEndian
        return SocketAddress(raw: address, isIPv6: false, port: port)
    }

    /// The IPv6 loopback address ::1 with `port`.
    public static func loopbackIPv6(port: UInt16 = 0) -> SocketAddress {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0[15] = 1 }
        return SocketAddress(raw: address, isIPv6: true, port: port)
    }

    /// An address from a C `in_addr` or `in6_addr` value.
    private init<Raw>(raw: Raw, isIPv6: Bool, port: UInt16) {
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { destination in
            withUnsafeBytes(of: raw) { destination.copyMemory(from: $0) }
        }
        self.bytes = bytes
        self.isIPv6 = isIPv6
        self.port = port
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6` from `storage`; nil for other families.
    init?(storage: UnsafeRawPointer) {
        switch Int32(storage.load(as: sa_family_t.self)) {
        case AF_INET:
            let address = storage.loadUnaligned(as: sockaddr_in.self)
            self.init(raw: address.sin_addr, isIPv6: false, port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = storage.loadUnaligned(as: sockaddr_in6.self)
            self.init(raw: address.sin6_addr, isIPv6: true, port: UInt16(bigEndian: address.sin6_port))
        default:
            return nil
        }
    }

    /// Writes the address as a `sockaddr_in`/`sockaddr_in6` into `storage` and returns its length.
    func write(to storage: UnsafeMutableRawPointer) -> socklen_t {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { destination in
                withUnsafeBytes(of: bytes) { destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(16))) }
            }
            storage.storeBytes(of: address, as: sockaddr_in6.self)
            return socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &address.sin_addr) { destination in
            withUnsafeBytes(of: bytes) { destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(4))) }
        }
        storage.storeBytes(of: address, as: sockaddr_in.self)
        return socklen_t(MemoryLayout<sockaddr_in>.size)
    }

    /// Calls `body` with the address as a `sockaddr` and its length, as `bind`, `connect` and
    /// `sendto` take it.
    @inline(__always)
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = sockaddr_storage()
        let length = withUnsafeMutableBytes(of: &storage) { write(to: $0.baseAddress!) }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The address without the port: `192.0.2.1` or `2001:db8::1`.
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv6 ? AF_INET6 : AF_INET
        _ = withUnsafeBytes(of: bytes) { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `192.0.2.1:5004` or `[2001:db8::1]:5004`.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
