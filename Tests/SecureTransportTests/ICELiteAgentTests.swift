import Testing
import TestSupport
import RTP
import SecureTransport

/// The ICE-lite agent answering checks: RFC 5769's request as the peer's check, our own
/// nominating checks, wrong passwords, and consent.
@Suite("ICE-lite agent")
struct ICELiteAgentTests {
    static let local = ICECredentials(usernameFragment: "evtj", password: "VOkJxbRl1RmTxUk/WvJxBt")
    static let remote = ICECredentials(usernameFragment: "h6vY", password: "remote-password-0123456789")
    static let peer = TransportAddress(addressBytes: [127, 0, 0, 1], port: 50_000)!

    static func check(username: String, password: String, useCandidate: Bool) -> [UInt8] {
        var builder = STUNMessageBuilder(type: .bindingRequest, transactionID: (0..<12).map { _ in UInt8.random(in: 0...255) })
        builder.append(.username, value: Array(username.utf8))
        builder.append(.iceControlling, value: [UInt8](repeating: 1, count: 8))
        if useCandidate { builder.append(.useCandidate, value: []) }
        return builder.finish(integrityKey: Array(password.utf8), fingerprint: true)
    }

    @Test("RFC 5769's sample request is answered with a success response carrying the source, signed with our password")
    func answersTheRFCRequest() throws {
        var agent = ICELiteAgent(local: Self.local, remote: Self.remote)
        let request = try STUNTests.vector("request")
        let outcome = request.withUnsafeBytes { agent.receive($0, from: Self.peer, now: .zero) }
        guard case let .answered(response, nominated) = outcome else { Issue.record("\(outcome)"); return }
        #expect(!nominated)
        let message = try response.withUnsafeBytes { try STUNMessage(parsing: $0) }
        #expect(message.type == .bindingSuccess)
        #expect(message.transactionID == Array(request[8..<20]))
        #expect(try message.xorMappedAddress() == Self.peer)
        #expect(message.hasValidIntegrity(key: Array(Self.local.password.utf8)) && message.hasValidFingerprint)
        #expect(agent.state == .waiting)
    }

    @Test("USE-CANDIDATE nominates the source as the media target")
    func nomination() {
        var agent = ICELiteAgent(local: Self.local, remote: Self.remote)
        let check = Self.check(username: "evtj:h6vY", password: Self.local.password, useCandidate: true)
        let outcome = check.withUnsafeBytes { agent.receive($0, from: Self.peer, now: .zero) }
        guard case .answered(_, true) = outcome else { Issue.record("\(outcome)"); return }
        #expect(agent.target == Self.peer)
    }

    @Test("A check with a bad MESSAGE-INTEGRITY is refused with 401 and nominates nothing")
    func badIntegrity() throws {
        var agent = ICELiteAgent(local: Self.local, remote: Self.remote)
        let check = Self.check(username: "evtj:h6vY", password: "not-the-password-at-all", useCandidate: true)
        let outcome = check.withUnsafeBytes { agent.receive($0, from: Self.peer, now: .zero) }
        guard case let .refused(reason, response?) = outcome else { Issue.record("\(outcome)"); return }
        #expect(reason == .badMessageIntegrity)
        #expect(reason.description.contains("MESSAGE-INTEGRITY"))
        let message = try response.withUnsafeBytes { try STUNMessage(parsing: $0) }
        #expect(message.type == .bindingError)
        #expect(message.value(of: .errorCode).map { Array($0.prefix(4)) } == [0, 0, 4, 1])
        #expect(agent.target == nil && agent.checksRefused == 1)
    }

    @Test("A check for another username fragment is refused")
    func wrongUsername() {
        var agent = ICELiteAgent(local: Self.local, remote: Self.remote)
        let check = Self.check(username: "other:h6vY", password: Self.local.password, useCandidate: true)
        let outcome = check.withUnsafeBytes { agent.receive($0, from: Self.peer, now: .zero) }
        guard case .refused(.wrongUsername("other:h6vY"), _) = outcome else { Issue.record("\(outcome)"); return }
    }

    @Test("Consent: fresh checks keep the pair; 30 s without one fails the agent (RFC 7675)")
    func consentExpires() {
        var agent = ICELiteAgent(local: Self.local, remote: Self.remote)
        agent.start(now: .zero)
        let nominate = Self.check(username: "evtj:h6vY", password: Self.local.password, useCandidate: true)
        _ = nominate.withUnsafeBytes { agent.receive($0, from: Self.peer, now: MediaTime(seconds: 1)) }
        let keepalive = Self.check(username: "evtj:h6vY", password: Self.local.password, useCandidate: false)
        _ = keepalive.withUnsafeBytes { agent.receive($0, from: Self.peer, now: MediaTime(seconds: 20)) }
        agent.poll(now: MediaTime(seconds: 45))
        #expect(agent.target == Self.peer)
        agent.poll(now: MediaTime(seconds: 50))
        #expect(agent.state == .failed(.consentExpired(seconds: 30)))
    }

    @Test("No nomination within the deadline fails the agent")
    func noNomination() {
        var agent = ICELiteAgent(remote: Self.remote, nominationTimeout: MediaTime(seconds: 10))
        agent.start(now: .zero)
        agent.poll(now: MediaTime(seconds: 10))
        #expect(agent.state == .failed(.noNomination(seconds: 10)))
    }
}
