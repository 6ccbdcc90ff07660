import Foundation
import Glibc
@testable import MediaSession
import Testing
import Locking

@Suite struct TransportTests {
    @Test func addressesParseAndPrint() throws {
        let v4 = try SocketAddress(host: "192.0.2.1", port: 5004)
        #expect(!v4.isIPv6)
        #expect(v4.addressBytes == [192, 0, 2, 1])
        #expect(v4.description == "192.0.2.1:5004")
        let v6 = try SocketAddress(host: "[2001:db8::1]", port: 5006)
        #expect(v6.isIPv6)
        #expect(v6.description == "[2001:db8::1]:5006")
        #expect(try SocketAddress(host: "2001:db8::1", port: 5006) == v6)
        #expect(SocketAddress.loopbackIPv4(port: 9).description == "127.0.0.1:9")
        #expect(SocketAddress.loopbackIPv6(port: 9).description == "[::1]:9")
        let error = #expect(throws: TransportError.self) { try SocketAddress(host: "example.org", port: 1) }
        #expect(error?.description == "parse address 'example.org' failed: not a literal IPv4 or IPv6 address")
    }

    @Test(arguments: [false, true])
    func batchReceiveCarriesSourceBytesAndKernelTimestamps(ipv6: Bool) throws {
        let loopback = ipv6 ? SocketAddress.loopbackIPv6() : SocketAddress.loopbackIPv4()
        let receiver = try UDPSocket(binding: loopback)
        let sender = try UDPSocket(binding: loopback)
        let before = Int64(Date().timeIntervalSince1970 * 1e9)
        for index in 0..<10 {
            let payload = [UInt8](repeating: UInt8(index), count: 20 + index)
            let sent = try payload.withUnsafeBytes { try sender.send($0, to: receiver.localAddress) }
            #expect(sent)
        }
        var batch = DatagramBatch(capacity: 16)
        var received: [(bytes: [UInt8], source: SocketAddress?, arrival: Int64)] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while received.count < 10, ContinuousClock.now < deadline {
            let count = try receiver.receive(into: &batch)
            for index in 0..<count {
                let datagram = batch[index]
                received.append((Array(datagram.bytes), datagram.source, datagram.arrivalNanoseconds))
            }
        }
        let after = Int64(Date().timeIntervalSince1970 * 1e9)
        #expect(received.count == 10)
        for (index, datagram) in received.enumerated() {
            #expect(datagram.bytes == [UInt8](repeating: UInt8(index), count: 20 + index))
            #expect(datagram.source == sender.localAddress)
            #expect(datagram.arrival >= before - 1_000_000 && datagram.arrival <= after)
        }
    }

    @Test func outgoingPacketsAreMarkedExpeditedForwarding() throws {
        for loopback in [SocketAddress.loopbackIPv4(), .loopbackIPv6()] {
            let socket = try UDPSocket(binding: loopback)
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            let level = loopback.isIPv6 ? Int32(IPPROTO_IPV6) : Int32(IPPROTO_IP)
            let option = loopback.isIPv6 ? Int32(IPV6_TCLASS) : Int32(IP_TOS)
            #expect(getsockopt(socket.descriptor, level, option, &value, &length) == 0)
            #expect(value == 46 << 2)
        }
    }

    /// A socket connected to its peer (as a server leg's RTP socket is once it latched) sends
    /// to it without an address and receives from it only: a third socket's datagram is
    /// dropped by the kernel, the peer's arrives.
    @Test func aConnectedSocketSendsToItsPeerAndHearsOnlyIt() throws {
        let leg = try UDPSocket(binding: .loopbackIPv4())
        let peer = try UDPSocket(binding: .loopbackIPv4())
        let stranger = try UDPSocket(binding: .loopbackIPv4())
        try leg.connect(to: peer.localAddress)
        #expect(try [UInt8]([1, 2, 3]).withUnsafeBytes { try leg.sendToPeer($0) })
        try [UInt8]([9]).withUnsafeBytes { _ = try stranger.send($0, to: leg.localAddress) }
        try [UInt8]([4, 5]).withUnsafeBytes { _ = try peer.send($0, to: leg.localAddress) }
        var batch = DatagramBatch(capacity: 4)
        func receiveOne(on socket: UDPSocket) throws -> (bytes: [UInt8], source: SocketAddress?)? {
            for _ in 0..<200 {
                if try socket.receive(into: &batch) > 0 { return (Array(batch[0].bytes), batch[0].source) }
                usleep(1000)
            }
            return nil
        }
        let atPeer = try receiveOne(on: peer)
        #expect(atPeer?.bytes == [1, 2, 3])
        #expect(atPeer?.source == leg.localAddress)
        let atLeg = try receiveOne(on: leg)
        #expect(atLeg?.bytes == [4, 5], "the stranger's datagram never reaches the connected socket")
        #expect(atLeg?.source == peer.localAddress)
        #expect(try leg.receive(into: &batch) == 0)
    }

    @Test func oversizedDatagramIsFlaggedTruncated() throws {
        let receiver = try UDPSocket(binding: .loopbackIPv4())
        let sender = try UDPSocket(binding: .loopbackIPv4())
        let payload = [UInt8](repeating: 7, count: 300)
        try payload.withUnsafeBytes { _ = try sender.send($0, to: receiver.localAddress) }
        var batch = DatagramBatch(capacity: 1, maximumDatagramBytes: 100)
        var count = 0
        for _ in 0..<200 where count == 0 {
            count = try receiver.receive(into: &batch)
            if count == 0 { usleep(1000) }
        }
        #expect(count == 1)
        #expect(batch[0].isTruncated)
        #expect(batch[0].bytes.count == 100)
    }

    /// One batch reused across sockets and receives, as an I/O thread's is across its legs: the
    /// system call's headers are built once and reset after each receive, so neither a cut
    /// datagram's flag, nor an IPv4 source's shorter address, nor the timestamp's control space
    /// carries over into the next receive, and a batch of three slots filled then half filled
    /// reports each datagram afresh.
    @Test func aReusedBatchReportsEachReceiveAfresh() throws {
        var batch = DatagramBatch(capacity: 3, maximumDatagramBytes: 100)
        let before = Int64(Date().timeIntervalSince1970 * 1e9)
        func receiveAll(_ expected: Int, on socket: UDPSocket) throws -> [(bytes: [UInt8], source: SocketAddress?, arrival: Int64, cut: Bool)] {
            var received: [(bytes: [UInt8], source: SocketAddress?, arrival: Int64, cut: Bool)] = []
            for _ in 0..<200 where received.count < expected {
                let count = try socket.receive(into: &batch)
                for index in 0..<count {
                    received.append((Array(batch[index].bytes), batch[index].source, batch[index].arrivalNanoseconds, batch[index].isTruncated))
                }
                if count == 0 { usleep(1000) }
            }
            return received
        }
        for round in 0..<3 {
            for loopback in [SocketAddress.loopbackIPv6(), .loopbackIPv4()] {
                let receiver = try UDPSocket(binding: loopback)
                let sender = try UDPSocket(binding: loopback)
                let sizes = round == 1 ? [20] : [300, 20, 150]
                for (index, size) in sizes.enumerated() {
                    try [UInt8](repeating: UInt8(index + 1), count: size).withUnsafeBytes { _ = try sender.send($0, to: receiver.localAddress) }
                }
                let received = try receiveAll(sizes.count, on: receiver)
                let after = Int64(Date().timeIntervalSince1970 * 1e9)
                #expect(received.count == sizes.count)
                for (index, datagram) in received.enumerated() {
                    #expect(datagram.bytes == [UInt8](repeating: UInt8(index + 1), count: min(sizes[index], 100)))
                    #expect(datagram.cut == (sizes[index] > 100))
                    #expect(datagram.source == sender.localAddress, "round \(round), \(loopback)")
                    #expect(datagram.arrival >= before - 1_000_000 && datagram.arrival <= after)
                }
                #expect(try receiver.receive(into: &batch) == 0)
            }
        }
    }

    @Test func bindingATakenPortNamesTheAddress() throws {
        let first = try UDPSocket(binding: .loopbackIPv4())
        let error = #expect(throws: TransportError.self) { try UDPSocket(binding: first.localAddress) }
        #expect(error?.operation == "bind")
        #expect(error?.code == EADDRINUSE)
        #expect(error?.description.hasPrefix("bind \(first.localAddress) failed: ") == true)
    }

    @Test func eventLoopServesManySocketsAndStopsOnUnregister() throws {
        let loop = try UDPEventLoop()
        defer { loop.shutdown() }
        let sockets = try (0..<3).map { _ in try UDPSocket(binding: .loopbackIPv4()) }
        let sender = try UDPSocket(binding: .loopbackIPv4())
        let counts = PThreadLock([Int](repeating: 0, count: 3))
        var tokens: [UInt64] = []
        for (index, socket) in sockets.enumerated() {
            tokens.append(
                try loop.register(socket) { datagram in
                    if datagram.source == sender.localAddress, datagram.bytes.first == UInt8(index) {
                        counts.withLock { $0[index] += 1 }
                    }
                })
        }
        for round in 0..<100 {
            for (index, socket) in sockets.enumerated() {
                let payload = [UInt8(index), UInt8(truncatingIfNeeded: round)]
                try payload.withUnsafeBytes { _ = try sender.send($0, to: socket.localAddress) }
            }
        }
        #expect(waitUntil { counts.withLock { $0 } == [100, 100, 100] })

        loop.unregister(tokens[0])
        try [UInt8(0)].withUnsafeBytes { _ = try sender.send($0, to: sockets[0].localAddress) }
        try [UInt8(1)].withUnsafeBytes { _ = try sender.send($0, to: sockets[1].localAddress) }
        #expect(waitUntil { counts.withLock { $0[1] } == 101 })
        #expect(counts.withLock { $0[0] } == 100)
    }

    /// A handler that shuts its own loop down (as happens when it drops the loop's owner's last
    /// reference) returns: the loop does not wait for its own thread. Before, it waited forever.
    @Test func shutdownFromTheLoopsOwnThreadReturns() throws {
        let loop = try UDPEventLoop()
        let socket = try UDPSocket(binding: .loopbackIPv4())
        let sender = try UDPSocket(binding: .loopbackIPv4())
        let returned = DispatchSemaphore(value: 0)
        try loop.register(socket) { _ in
            loop.shutdown()
            returned.signal()
        }
        try [UInt8(1)].withUnsafeBytes { _ = try sender.send($0, to: socket.localAddress) }
        #expect(returned.wait(timeout: .now() + 5) == .success)
        loop.shutdown()  // idempotent from another thread too
    }

    /// An owner whose handler holds it strongly (owner → loop → handler → owner) is freed once
    /// the loop has shut down: the ended thread drops its handlers. Before, every impairment
    /// relay of a demo stayed alive with its sockets (AddressSanitizer's leak report).
    @Test func shutdownReleasesHandlersThatHoldTheLoopsOwner() throws {
        final class Owner: Sendable {
            let loop: UDPEventLoop
            let socket: UDPSocket
            init() throws {
                loop = try UDPEventLoop()
                socket = try UDPSocket(binding: .loopbackIPv4())
                try loop.register(socket) { [self] _ in _ = self.socket }
            }
        }
        weak var released: Owner?
        do {
            let owner = try Owner()
            released = owner
            owner.loop.shutdown()
        }
        #expect(waitUntil { released == nil }, "the loop's ended thread still holds the handler and its owner")
    }

    /// Polls `condition` for up to two seconds.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }
}
