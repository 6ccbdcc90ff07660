import MediaSession

/// The user agent's UDP socket and the I/O thread delivering its datagrams.
final class SIPTransport: Sendable {
    /// The bound socket.
    let socket: UDPSocket
    private let eventLoop: UDPEventLoop

    /// Binds `address` and delivers each datagram, copied, to `handler` on the I/O thread.
    init(binding address: SocketAddress, handler: @escaping @Sendable ([UInt8], SocketAddress) -> Void) throws(TransportError) {
        socket = try UDPSocket(binding: address, options: UDPSocketOptions(dscp: 24, receiveTimestamps: false))
        eventLoop = try UDPEventLoop(batchCapacity: 8)
        try eventLoop.register(socket) { datagram in
            guard let source = datagram.source, !datagram.isTruncated else { return }
            handler(Array(datagram.bytes), source)
        }
    }

    /// Sends `bytes` to `destination`; failures (unreachable, full buffer) are left to the
    /// retransmission timers, as UDP SIP does.
    func send(_ bytes: [UInt8], to destination: SocketAddress) {
        _ = bytes.withUnsafeBytes { try? socket.send($0, to: destination) }
    }

    /// Stops the I/O thread.
    func shutdown() {
        eventLoop.shutdown()
    }
}
