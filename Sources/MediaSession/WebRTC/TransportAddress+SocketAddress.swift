import SecureTransport

extension TransportAddress {
    /// The same address and port as `address`.
    init(_ address: SocketAddress) {
        // A socket address holds 4 or 16 octets, which is all TransportAddress asks.
        self.init(addressBytes: address.addressBytes, port: address.port)!
    }
}

extension SocketAddress {
    /// The same address and port as `address`.
    init(_ address: TransportAddress) throws(TransportError) {
        let bytes = address.addressBytes
        let host =
            address.isIPv6
            ? stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
            : bytes.map(String.init).joined(separator: ".")
        try self.init(host: host, port: address.port)
    }
}
