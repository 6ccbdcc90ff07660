import Foundation
import MediaSession
import Testing
@testable import SIP

/// SIPp (Debian `sip-tester`) plays registrars, proxies and callers against our user agent,
/// with the scenarios in scripts/sipp: digest challenges (401 and 407, checked by SIPp's
/// `verifyauth`), CANCEL, BYE from either side, re-INVITE hold and resume, OPTIONS and an
/// unknown method. SIPp's exit status says whether every message it expected came.
@Suite(.serialized) struct SIPpScenarioTests {
    static let credentials = DigestCredentials(username: "alice", password: "secret")

    /// Starts SIPp with `scenario` on a free port; `target` makes it a caller.
    static func sipp(_ scenario: String, target: String? = nil) throws -> (process: PeerProcess, port: UInt16) {
        let directory = NSTemporaryDirectory() + "sipp-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = FreePort.next()
        let file = InteropSpeech.repositoryRoot + "/scripts/sipp/\(scenario).xml"
        var arguments = ["sipp"] + (target.map { [$0, "-s", "engine"] } ?? [])
        arguments += [
            "-sf", file, "-i", "127.0.0.1", "-p", String(port), "-cp", String(FreePort.next()), "-m", "1",
            "-timeout", "20", "-timeout_error", "-nr",
        ]
        let process = try PeerProcess(arguments, package: "sip-tester", directory: directory, seconds: 25)
        Thread.sleep(forTimeInterval: 0.3)
        return (process, port)
    }

    static func agent(credentials: DigestCredentials? = credentials) throws -> SIPUserAgent {
        try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "alice", credentials: credentials))
    }

    @Test(arguments: ["register-401", "register-407"])
    func registerThroughAChallenge(scenario: String) async throws {
        let (sipp, port) = try Self.sipp(scenario)
        let agent = try Self.agent()
        defer { agent.shutdown() }
        let state = try await agent.register(with: "sip:127.0.0.1:\(port)", expiresSeconds: 120)
        #expect(state == .registered(expiresSeconds: 60))
        #expect(sipp.waitForExit(seconds: 10) == 0, "\(sipp.log.suffix(600))")
    }

    @Test func aShortBindingIsRefreshedBeforeItExpires() async throws {
        let (sipp, port) = try Self.sipp("register-refresh")
        let agent = try Self.agent(credentials: nil)
        defer { agent.shutdown() }
        #expect(try await agent.register(with: "sip:127.0.0.1:\(port)") == .registered(expiresSeconds: 2))
        #expect(sipp.waitForExit(seconds: 6) == 0, "\(sipp.log.suffix(600))")
    }

    @Test func inviteThrough407ThenHoldResumeAndTheCalleeHangsUp() async throws {
        let (sipp, port) = try Self.sipp("invite-407-hold-remote-bye")
        let agent = try Self.agent()
        defer { agent.shutdown() }
        let call = try agent.dial("sip:service@127.0.0.1:\(port)", media: UserAgentCallTests.media())
        #expect(await UserAgentCallTests.wait { call.state == .connected })
        call.hold()
        #expect(await UserAgentCallTests.wait { call.state == .held })
        call.resume()
        #expect(await UserAgentCallTests.wait { call.state == .connected })
        #expect(await UserAgentCallTests.wait { call.state == .ended(.remoteHangUp) })
        #expect(sipp.waitForExit(seconds: 10) == 0, "\(sipp.log.suffix(600))")
    }

    @Test func inviteThrough401AndTheCallerHangsUp() async throws {
        let (sipp, port) = try Self.sipp("invite-401-local-bye")
        let agent = try Self.agent()
        defer { agent.shutdown() }
        let call = try agent.dial("sip:service@127.0.0.1:\(port)", media: UserAgentCallTests.media())
        #expect(await UserAgentCallTests.wait { call.state == .connected })
        call.hangUp()
        #expect(call.state == .ended(.localHangUp))
        #expect(sipp.waitForExit(seconds: 10) == 0, "\(sipp.log.suffix(600))")
    }

    @Test func cancelBeforeTheAnswer() async throws {
        let (sipp, port) = try Self.sipp("cancel-before-answer")
        let agent = try Self.agent(credentials: nil)
        defer { agent.shutdown() }
        let call = try agent.dial("sip:service@127.0.0.1:\(port)", media: UserAgentCallTests.media())
        #expect(await UserAgentCallTests.wait { call.state == .ringing(earlyMedia: false) })
        call.hangUp()
        #expect(sipp.waitForExit(seconds: 10) == 0, "\(sipp.log.suffix(600))")
        #expect(call.stateHistory == [.calling, .ringing(earlyMedia: false), .ended(.localHangUp)])
    }

    @Test func aCallerWithOptionsAnUnknownMethodAHoldAndABye() async throws {
        let agent = try Self.agent(credentials: nil)
        defer { agent.shutdown() }
        let (sipp, _) = try Self.sipp("caller-options-unknown-method", target: "127.0.0.1:\(agent.localAddress.port)")
        let call = try #require(await InteropRun.nextCall(agent, within: 10))
        try call.answer(media: UserAgentCallTests.media())
        #expect(sipp.waitForExit(seconds: 15) == 0, "\(sipp.log.suffix(600))")
        #expect(call.stateHistory == [.calling, .ringing(earlyMedia: false), .connected, .remotelyHeld, .ended(.remoteHangUp)])
        #expect(agent.counters.unknownMethodsAnswered == 1)
    }
}
