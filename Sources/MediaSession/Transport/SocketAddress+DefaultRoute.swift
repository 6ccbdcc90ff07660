import Glibc

extension SocketAddress {
    /// The host's IPv4 address on its default route, with `port`: the source address the
    /// kernel picks for a datagram to a public address (a UDP socket is connected, which sends
    /// nothing, and its local address read). Nil when the host has no IPv4 default route.
    public static func defaultRouteIPv4(port: UInt16 = 0) -> SocketAddress? {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // 203.0.113.1 (TEST-NET-3, RFC 5737): routed like any public address, never reached.
        guard let probe = try? SocketAddress(host: "203.0.113.1", port: 9) else { return nil }
        let connected = probe.withSocketAddress { connect(descriptor, $0, $1) }
        guard connected == 0 else { return nil }
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) }
        }
        guard named == 0, let address = withUnsafeBytes(of: &local, { SocketAddress(storage: $0.baseAddress!) }),
            address.host != "0.0.0.0"
        else { return nil }
        return try? SocketAddress(host: address.host, port: port)
    }

    /// The address a session binds to and offers unless told otherwise: the host's address on
    /// its default route (``defaultRouteIPv4(port:)``), or the IPv4 loopback when the host has
    /// no route beyond itself.
    public static func defaultLocal(port: UInt16 = 0) -> SocketAddress {
        defaultRouteIPv4(port: port) ?? .loopbackIPv4(port: port)
    }
}
