internal import CNetShims
import Glibc

/// Socket options for media: DSCP marking, kernel receive timestamps and buffer sizes.
public struct UDPSocketOptions: Sendable, Equatable {
    /// The DSCP code point for outgoing packets. Default 46, Expedited Forwarding (RFC 3246),
    /// the class for voice; nil leaves the system's marking.
    public var dscp: UInt8?
    /// Whether the kernel stamps each received datagram (SO_TIMESTAMPNS). Default true.
    public var receiveTimestamps: Bool
    /// The kernel receive buffer, in bytes. Default 512 KiB (a few seconds of voice at any rate).
    public var receiveBufferBytes: Int

    /// Options with the documented defaults.
    public init(dscp: UInt8? = 46, receiveTimestamps: Bool = true, receiveBufferBytes: Int = 512 * 1024) {
        self.dscp = dscp
        self.receiveTimestamps = receiveTimestamps
        self.receiveBufferBytes = receiveBufferBytes
    }
}

/// A non-blocking UDP socket for RTP, RTCP, or both muxed.
///
/// `Sendable`: the descriptor never changes, and the kernel lets one thread receive while
/// another sends. The socket is closed when the last reference goes.
public final class UDPSocket: Sendable {
    /// The file descriptor, for registering with a ``UDPEventLoop``.
    let descriptor: Int32
    /// The address the socket is bound to (with the system-chosen port when 0 was asked).
    public let localAddress: SocketAddress

    /// Opens a socket bound to `address` (port 0 lets the system choose) with `options`.
    /// - Throws: ``TransportError`` naming the call and the address.
    public init(binding address: SocketAddress, options: UDPSocketOptions = .init()) throws(TransportError) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw TransportError(operation: "socket", subject: address.description, code: errno)
        }
        do throws(TransportError) {
            try Self.apply(options, to: descriptor, isIPv6: address.isIPv6, subject: address.description)
            let status = address.withSocketAddress { Glibc.bind(descriptor, $0, $1) }
            guard status == 0 else { throw TransportError(operation: "bind", subject: address.description, code: errno) }
            localAddress = try Self.boundAddress(of: descriptor, subject: address.description)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends one datagram to `destination`. Returns false when the kernel's send buffer is full
    /// (the datagram is dropped, as a real-time sender must).
    /// - Throws: ``TransportError`` for any other failure (unreachable network, wrong family).
    @discardableResult
    public func send(_ bytes: UnsafeRawBufferPointer, to destination: SocketAddress) throws(TransportError) -> Bool {
        let sent = destination.withSocketAddress { sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, $1) }
        return try Self.datagramSent(sent, operation: "sendto", subject: destination.description)
    }

    /// Whether a send that returned `result` sent its datagram: true, or false when the
    /// kernel's send buffer was full (`EAGAIN`).
    /// - Throws: ``TransportError`` for any other failure, naming `operation` and `subject`
    ///   (made only then).
    @inline(__always)
    private static func datagramSent(_ result: Int, operation: String, subject: @autoclosure () -> String) throws(TransportError) -> Bool {
        if result >= 0 { return true }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK { return false }
        throw TransportError(operation: operation, subject: subject(), code: code)
    }

    /// Fixes the socket's peer (`connect`): the kernel then keeps the route to it, so that
    /// ``sendToPeer(_:)`` looks up neither the route nor the address per datagram, delivers
    /// arriving datagrams to the socket without searching for it (early demultiplexing), and
    /// drops datagrams from any other source.
    /// - Throws: ``TransportError`` when the kernel refuses (another address family, say).
    func connect(to peer: SocketAddress) throws(TransportError) {
        let status = peer.withSocketAddress { Glibc.connect(descriptor, $0, $1) }
        guard status == 0 else { throw TransportError(operation: "connect", subject: peer.description, code: errno) }
    }

    /// Sends one datagram to the peer fixed by ``connect(to:)``. Returns false when the
    /// kernel's send buffer is full (the datagram is dropped, as a real-time sender must).
    /// - Throws: ``TransportError`` for any other failure (the peer's port closed, reported
    ///   once by the network).
    func sendToPeer(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> Bool {
        let sent = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
        return try Self.datagramSent(sent, operation: "send", subject: localAddress.description)
    }

    /// Receives the datagrams waiting on the socket into `batch`, up to its capacity, without
    /// blocking. Returns how many arrived (0 when none was waiting).
    /// - Throws: ``TransportError`` when the receive fails for a reason other than "nothing waiting".
    public func receive(into batch: inout DatagramBatch) throws(TransportError) -> Int {
        let received = batch.receive(from: descriptor)
        guard received >= 0 else {
            throw TransportError(operation: "recvmmsg", subject: localAddress.description, code: Int32(truncatingIfNeeded: -received))
        }
        return received
    }

    /// Receives until the socket has nothing waiting, handing each datagram to `handler` (its
    /// bytes valid during the call only). A failing receive (a pending ICMP error, reported
    /// once) is retried a few times before the rest is left for the next call.
    func receiveAll(into batch: inout DatagramBatch, handler: (ReceivedDatagram) -> Void) {
        var failures = 0
        while failures < Self.receiveRetries {
            let received: Int
            do {
                received = try receive(into: &batch)
            } catch {
                failures += 1
                continue
            }
            for index in 0..<received {
                handler(batch[index])
            }
            if received < batch.capacity { break }
        }
    }

    /// Receive failures tolerated in one ``receiveAll(into:handler:)``.
    private static let receiveRetries = 4

    private static func apply(_ options: UDPSocketOptions, to descriptor: Int32, isIPv6: Bool, subject: String) throws(TransportError) {
        if isIPv6 {
            try setOption(descriptor, Int32(IPPROTO_IPV6), Int32(IPV6_V6ONLY), 1, name: "IPV6_V6ONLY", subject: subject)
        }
        if let dscp = options.dscp {
            // The DSCP sits in the upper six bits of the TOS / traffic class byte.
            let trafficClass = Int32(dscp & 0x3F) << 2
            if isIPv6 {
                try setOption(descriptor, Int32(IPPROTO_IPV6), Int32(IPV6_TCLASS), trafficClass, name: "IPV6_TCLASS", subject: subject)
            } else {
                try setOption(descriptor, Int32(IPPROTO_IP), Int32(IP_TOS), trafficClass, name: "IP_TOS", subject: subject)
            }
        }
        if options.receiveTimestamps {
            try setOption(descriptor, SOL_SOCKET, SO_TIMESTAMPNS, 1, name: "SO_TIMESTAMPNS", subject: subject)
        }
        let bufferBytes = Int32(clamping: options.receiveBufferBytes)
        try setOption(descriptor, SOL_SOCKET, SO_RCVBUF, bufferBytes, name: "SO_RCVBUF", subject: subject)
    }

    private static func setOption(_ descriptor: Int32, _ level: Int32, _ option: Int32, _ value: Int32, name: String, subject: String) throws(TransportError) {
        var value = value
        guard setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw TransportError(operation: "setsockopt \(name)", subject: subject, code: errno)
        }
    }

    private static func boundAddress(of descriptor: Int32, subject: String) throws(TransportError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0, let address = withUnsafeBytes(of: &storage, { SocketAddress(storage: $0.baseAddress!) }) else {
            throw TransportError(operation: "getsockname", subject: subject, code: errno)
        }
        return address
    }
}
