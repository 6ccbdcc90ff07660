import Foundation
import MediaSession
import Testing
@testable import SIP

/// Hostile SIP at a user agent in a live call: 1 000 malformed datagrams change nothing but
/// the counters (the lying Content-Length requests, readable enough to answer, get 400; the
/// rest are dropped); the call stays connected and answers in-dialog requests afterwards.
@Suite(.serialized) struct MalformedTrafficTests {
    /// Malformed variations of real messages: truncations, bad start lines, missing or broken
    /// headers, lying Content-Length, binary noise, an unknown method without Via.
    static func malformed(count: Int, callID: String) -> [[UInt8]] {
        let valid =
            "BYE sip:alice@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKx\r\nFrom: <sip:x@127.0.0.1>;tag=a\r\n"
            + "To: <sip:y@127.0.0.1>;tag=b\r\nCall-ID: \(callID)\r\nCSeq: 9 BYE\r\nContent-Length: 0\r\n\r\n"
        let bytes = Array(valid.utf8)
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { index -> [UInt8] in
            switch index % 6 {
            case 0: return Array(bytes.prefix(Int.random(in: 1..<(bytes.count - 4), using: &generator)))
            case 1: return Array(valid.replacingOccurrences(of: "SIP/2.0\r\nVia", with: "SIP/3.0\r\nVia").utf8)
            case 2: return Array(valid.replacingOccurrences(of: "Via: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKx\r\n", with: "").utf8)
            case 3: return Array(valid.replacingOccurrences(of: "Content-Length: 0", with: "Content-Length: 900").utf8)
            case 4: return (0..<Int.random(in: 1...1400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            default: return Array(valid.replacingOccurrences(of: "CSeq: 9 BYE", with: "CSeq: nine BYE").utf8)
            }
        }
    }

    @Test func aThousandMalformedDatagramsChangeOnlyCounters() async throws {
        let alice = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "alice"))
        let bob = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "bob"))
        defer { alice.shutdown(); bob.shutdown() }
        let call = try alice.dial("sip:bob@127.0.0.1:\(bob.localAddress.port)", media: UserAgentCallTests.media())
        let answered = try #require(await InteropRun.nextCall(bob, within: 5))
        try answered.answer(media: UserAgentCallTests.media())
        #expect(await UserAgentCallTests.wait { call.state == .connected && answered.state == .connected })
        let before = alice.counters
        let historyBefore = call.stateHistory

        let attacker = try UDPSocket(binding: .loopbackIPv4(), options: UDPSocketOptions(dscp: nil, receiveTimestamps: false))
        // Paced so that the kernel's receive buffer never overflows: every datagram must arrive.
        for (index, datagram) in Self.malformed(count: 1000, callID: call.callID).enumerated() {
            _ = datagram.withUnsafeBytes { try? attacker.send($0, to: alice.localAddress) }
            if index % 10 == 9 { try? await Task.sleep(for: .milliseconds(2)) }
        }
        func handled(_ counters: SIPCounters) -> Int { counters.malformedDropped + counters.badRequestsAnswered }
        #expect(await UserAgentCallTests.wait { handled(alice.counters) - handled(before) == 1000 })
        let after = alice.counters
        // Every sixth datagram (index 3, 9, …, 999) is the BYE whose Content-Length lies: 167.
        #expect(after.badRequestsAnswered - before.badRequestsAnswered == 167)
        #expect(after.malformedDropped - before.malformedDropped == 833)
        #expect(after.messagesReceived == before.messagesReceived)
        #expect(call.state == .connected && answered.state == .connected)
        #expect(call.stateHistory == historyBefore)

        // The call still works: a hold goes through and the peer hangs up normally.
        call.hold()
        #expect(await UserAgentCallTests.wait { call.state == .held && answered.state == .remotelyHeld })
        answered.hangUp()
        #expect(await UserAgentCallTests.wait { call.state == .ended(.remoteHangUp) })
    }
}
