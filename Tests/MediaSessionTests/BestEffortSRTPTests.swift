import Foundation
import MediaSession
import RTP
import TestSupport
import Testing

/// Best-effort SRTP (`srtpRequired: false`, `mediabench phone --srtp optional`): the usual
/// SDES convention of an `RTP/AVP` offer with `a=crypto` lines, SRTP when the answer has a
/// key and plain RTP when it has none; as answerer, SRTP for an offer with keys. Built from
/// the real SDP of baresip and Linphone in Tests/Fixtures/sdp.
@Suite struct BestEffortSRTPTests {
    private static func local(_ suites: [SRTPCryptoSuite], required: Bool) throws -> LocalAudioCapabilities {
        let crypto = try suites.enumerated().map { index, suite in
            try SDESCryptoAttribute(tag: UInt32(index + 1), key: SDESKeyParameter(masterKey: .random(for: suite)))
        }
        return LocalAudioCapabilities(
            address: "192.0.2.9", rtpPort: 30000, codecs: [.opus, .pcmu], crypto: crypto, srtpRequired: required
        )
    }

    private static let suites: [SRTPCryptoSuite] = [.aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32]

    @Test func offerIsAVPWithEveryKey() throws {
        let offer = try SessionDescription(parsing: MediaNegotiation.offer(Self.local(Self.suites, required: false)).text)
        #expect(offer.audio?.transport == "RTP/AVP")
        #expect(offer.audio?.crypto.map(\.suite) == Self.suites)
        // Required SRTP stays RTP/SAVP.
        #expect(MediaNegotiation.offer(try Self.local(Self.suites, required: true)).audio?.transport == "RTP/SAVP")
    }

    /// baresip's plain answer (no `a=crypto`): a best-effort offerer goes on in clear; one
    /// that requires SRTP refuses it.
    @Test func plainAnswerGivesPlainRTPOnlyWhenBestEffort() throws {
        let answer = try SessionDescription(parsing: Fixtures.sdp("baresip-answer-avp.sdp"))
        let media = try MediaNegotiation.apply(answer: answer, toOfferFrom: Self.local(Self.suites, required: false))
        #expect(media.crypto == nil)
        #expect(media.profile == "RTP/AVP")
        #expect(throws: MediaNegotiationError.self) { try MediaNegotiation.apply(answer: answer, toOfferFrom: Self.local(Self.suites, required: true)) }
    }

    /// baresip's answer with its key (tag 1, AES_CM_128_HMAC_SHA1_80), in the offer's
    /// `RTP/AVP` profile: SRTP with our line of that tag.
    @Test func answerWithKeyGivesSRTP() throws {
        let text = try Fixtures.sdp("baresip-answer-savp.sdp").replacingOccurrences(of: "RTP/SAVP", with: "RTP/AVP")
        let ours = try Self.local(Self.suites, required: false)
        let media = try MediaNegotiation.apply(answer: SessionDescription(parsing: text), toOfferFrom: ours)
        #expect(media.profile == "RTP/AVP")
        #expect(media.crypto?.suite == .aes128CounterModeHMACSHA1Tag80)
        #expect(media.crypto?.local == ours.crypto[0])
    }

    /// Linphone's four keys in an `RTP/AVP` offer (the best-effort form of its SAVP offer):
    /// answered `RTP/AVP` with SRTP, whether we require it or not; a plain offer (baresip's)
    /// is answered in clear by a best-effort answerer.
    @Test(arguments: [false, true])
    func answererTakesOfferedKeys(required: Bool) throws {
        let offer = try SessionDescription(
            parsing: Fixtures.sdp("linphone-offer-savp.sdp").replacingOccurrences(of: "RTP/SAVP", with: "RTP/AVP"))
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local([.aes128CounterModeHMACSHA1Tag32], required: required))
        #expect(answer.audio?.transport == "RTP/AVP")
        #expect(answer.audio?.crypto.map(\.tag) == [2])
        #expect(media.crypto?.suite == .aes128CounterModeHMACSHA1Tag32)
    }

    @Test func bestEffortAnswererAnswersAPlainOfferInClear() throws {
        let offer = try SessionDescription(parsing: Fixtures.sdp("baresip-offer-avp.sdp"))
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local(Self.suites, required: false))
        #expect(answer.audio?.transport == "RTP/AVP")
        #expect(answer.audio?.crypto.isEmpty == true)
        #expect(media.crypto == nil)
        #expect(throws: MediaNegotiationError.self) { try MediaNegotiation.answer(to: offer, with: Self.local(Self.suites, required: true)) }
    }
}

extension LiveCalls {
    /// Best effort end to end: a session configured with `srtpRequired: false` calls one with
    /// keys (SRTP flows, nothing fails authentication) and one without (plain RTP flows).
    @Suite struct BestEffortSRTPCalls {
        @Test(arguments: [true, false])
        func bestEffortCallerTalksToEitherPeer(calleeHasKeys: Bool) throws {
            let call = try LoopbackCall(codecs: [.pcmu], sampleRate: 8000, srtp: [.aes128CounterModeHMACSHA1Tag80]) {
                $0.srtpRequired = false
            } adjustCallee: {
                if !calleeHasKeys { $0.srtpSuites = [] }
            }
            #expect(call.callerMedia.profile == "RTP/AVP")
            #expect((call.callerMedia.crypto != nil) == calleeHasKeys)
            #expect((call.calleeMedia.crypto != nil) == calleeHasKeys)
            #expect(waitUntil(seconds: 5) { call.caller.statistics.rtpPacketsReceived > 20 && call.callee.statistics.rtpPacketsReceived > 20 })
            call.stop()
            #expect(call.caller.statistics.authenticationFailures == 0)
            #expect(call.callee.statistics.authenticationFailures == 0)
        }
    }
}
