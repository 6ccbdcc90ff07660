import Foundation
import Synchronization
import MediaSession
import RTP
import Testing
@testable import SIP

/// Two user agents of ours calling each other over 127.0.0.1: the whole SIP path with real
/// sockets and real media sessions (memory audio endpoints).
@Suite(.serialized) struct UserAgentCallTests {
    static func media(_ tone: Int16 = 3000) -> MediaSessionConfiguration {
        let source = (0..<8000 * 10).map { Int16(Double(tone) * sin(Double($0) * 2 * .pi * 440 / 8000)) }
        return MediaSessionConfiguration(
            codecs: [.pcmu], echoCancellation: false, noiseSuppression: false,
            audio: .endpoint(MemoryAudioEndpoint(source: source, recordingCapacitySamples: 8000 * 20)),
            rtcpMinimumIntervalSeconds: 1
        )
    }

    /// Waits (at most `seconds`) until `condition` holds.
    static func wait(_ seconds: Double = 5, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    static func firstIncoming(_ agent: SIPUserAgent) async -> Call? {
        for await call in agent.incomingCalls { return call }
        return nil
    }

    @Test func aCallConnectsHoldsResumesCarriesDTMFAndEndsWithTheRightReasons() async throws {
        let alice = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "alice"))
        let bob = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "bob"))
        defer { alice.shutdown(); bob.shutdown() }
        let outgoing = try alice.dial("sip:bob@127.0.0.1:\(bob.localAddress.port)", media: Self.media())
        let incoming = try #require(await Self.firstIncoming(bob))
        #expect(await Self.wait { outgoing.state == .ringing(earlyMedia: false) && incoming.state == .ringing(earlyMedia: false) })
        try incoming.answer(media: Self.media(2000))
        #expect(await Self.wait { outgoing.state == .connected && incoming.state == .connected })
        #expect(outgoing.remoteUserAgent == "mediabench SIP")
        #expect(outgoing.negotiatedAudio?.sendCodec.map.encodingName == "PCMU")

        let digits = DigitCollector(incoming)
        try outgoing.sendDTMF("159#")
        #expect(await Self.wait { digits.text.count >= 4 })
        #expect(digits.text == "159#")

        outgoing.hold()
        #expect(await Self.wait { outgoing.state == .held && incoming.state == .remotelyHeld })
        outgoing.resume()
        #expect(await Self.wait { outgoing.state == .connected && incoming.state == .connected })
        incoming.hold()
        #expect(await Self.wait { incoming.state == .held && outgoing.state == .remotelyHeld })
        incoming.resume()
        #expect(await Self.wait { incoming.state == .connected && outgoing.state == .connected })

        incoming.hangUp()
        #expect(await Self.wait { outgoing.state == .ended(.remoteHangUp) && incoming.state == .ended(.localHangUp) })
        #expect(
            outgoing.stateHistory == [.calling, .ringing(earlyMedia: false), .connected, .held, .connected, .remotelyHeld, .connected, .ended(.remoteHangUp)])
        #expect((outgoing.session?.statistics.rtpPacketsReceived ?? 0) > 0)
        #expect((incoming.session?.statistics.rtcpPacketsReceived ?? 0) > 0)
    }

    @Test func cancelBeforeAnswerRejectAndUnknownMethodsEndTheWayTheyShould() async throws {
        let alice = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "alice"))
        let bob = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "bob"))
        defer { alice.shutdown(); bob.shutdown() }
        let target = "sip:bob@127.0.0.1:\(bob.localAddress.port)"
        var calls = bob.incomingCalls.makeAsyncIterator()

        let cancelled = try alice.dial(target, media: Self.media())
        let ringing = try #require(await calls.next())
        #expect(await Self.wait { cancelled.state == .ringing(earlyMedia: false) })
        cancelled.hangUp()
        #expect(await Self.wait { ringing.state == .ended(.remoteHangUp) })
        #expect(cancelled.state == .ended(.localHangUp))

        let busy = try alice.dial(target, media: Self.media())
        let refused = try #require(await calls.next())
        refused.reject(busy: true)
        #expect(await Self.wait { busy.state == .ended(.busy) })

        let declined = try alice.dial(target, media: Self.media())
        try #require(await calls.next()).reject()
        #expect(await Self.wait { declined.state == .ended(.rejected) })

        #expect(throws: CallError.self) { try alice.dial("sip:bob@example.com", media: Self.media()) }
        #expect(throws: CallError.self) { try alice.dial("tel:+123", media: Self.media()) }
    }
}

/// The digits a call's peer sent, collected from its media events in the background.
final class DigitCollector: Sendable {
    private let received = Mutex("")

    /// Starts collecting `call`'s received digits.
    init(_ call: Call) {
        Task {
            for await event in call.mediaEvents {
                if case .dtmfReceived(let digit) = event { self.received.withLock { $0.append(digit) } }
            }
        }
    }

    /// The digits so far, in order.
    var text: String { received.withLock { $0 } }
}
