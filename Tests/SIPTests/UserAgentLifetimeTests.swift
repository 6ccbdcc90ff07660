import Foundation
import MediaSession
import Testing
@testable import SIP

/// A user agent released without ``SIPUserAgent/shutdown()`` while it is handling datagrams:
/// the last reference can go on its own I/O thread (the handler holds one while it runs), and
/// stopping that thread from itself used to wait for itself forever, keeping the socket bound.
@Suite struct UserAgentLifetimeTests {
    @Test func releasingAnAgentInTheMiddleOfTrafficFreesItsSocket() throws {
        let sender = try UDPSocket(binding: .loopbackIPv4(), options: UDPSocketOptions(dscp: nil, receiveTimestamps: false))
        for round in 0..<20 {
            var agent: SIPUserAgent? = try SIPUserAgent(configuration: SIPUserAgentConfiguration(localAddress: .loopbackIPv4(), userName: "alice"))
            let address = try #require(agent?.localAddress)
            let options = Array(
                ("OPTIONS sip:alice@\(address) SIP/2.0\r\nVia: SIP/2.0/UDP \(sender.localAddress);branch=z9hG4bK\(round)\r\n"
                    + "From: <sip:flood@127.0.0.1>;tag=f\r\nTo: <sip:alice@\(address)>\r\nCall-ID: flood-\(round)\r\nCSeq: 1 OPTIONS\r\n"
                    + "Content-Length: 0\r\n\r\n").utf8)
            let flooding = Flood()
            let flood = Thread {
                while flooding.running { _ = options.withUnsafeBytes { try? sender.send($0, to: address) } }
                flooding.finished.signal()
            }
            flood.start()
            usleep(UInt32.random(in: 2_000...10_000))
            agent = nil  // the I/O thread, mid-datagram, may now hold the last reference
            flooding.running = false
            flooding.finished.wait()
            #expect(agent == nil)
            // The socket is closed once the agent is gone: its port can be bound again.
            let deadline = Date().addingTimeInterval(3)
            var rebound: UDPSocket?
            while rebound == nil, Date() < deadline {
                rebound = try? UDPSocket(binding: address)
                if rebound == nil { usleep(10_000) }
            }
            #expect(rebound != nil, "round \(round): \(address) still bound: the agent's I/O thread is stuck")
        }
    }
}

/// The flood thread's switch.
private final class Flood: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = true
    let finished = DispatchSemaphore(value: 0)
    var running: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
