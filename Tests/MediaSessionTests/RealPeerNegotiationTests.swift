import Foundation
import MediaSession
import RTP
import TestSupport
import Testing

/// Offer/answer against the SDP that baresip and Linphone really sent (Tests/Fixtures/sdp),
/// one test per way a real call broke (issue 12).
@Suite struct RealPeerNegotiationTests {
    static func description(_ name: String) throws -> SessionDescription {
        try SessionDescription(parsing: Fixtures.sdp(name))
    }

    /// Our side: PCMU and Opus, telephone events on 101, with keys for `suites`.
    static func local(suites: [SRTPCryptoSuite] = [], codecs: [SDPCodec] = [.pcmu, .opus]) throws -> LocalAudioCapabilities {
        let crypto = try suites.enumerated().map { index, suite in
            try SDESCryptoAttribute(tag: UInt32(index + 1), key: SDESKeyParameter(masterKey: .random(for: suite)))
        }
        return LocalAudioCapabilities(address: "192.0.2.9", rtpPort: 30000, codecs: codecs, crypto: crypto)
    }

    @Test(arguments: ["baresip-offer-savp.sdp", "linphone-offer-savp.sdp"])
    func secureOfferIsAnsweredWithSRTPNeverInClear(fixture: String) throws {
        let offer = try Self.description(fixture)
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local(suites: [.aes128CounterModeHMACSHA1Tag80]))
        #expect(answer.audio?.transport == "RTP/SAVP")
        #expect(answer.audio?.crypto.count == 1)
        #expect(media.crypto?.suite == .aes128CounterModeHMACSHA1Tag80)
        #expect(media.profile == "RTP/SAVP")

        // Without SRTP configured: refused (the SIP layer answers 488), not answered RTP/AVP.
        let refusal = #expect(throws: MediaNegotiationError.self) { try MediaNegotiation.answer(to: offer, with: Self.local()) }
        guard case .secureProfileWithoutCommonSuite = refusal else {
            Issue.record("expected secureProfileWithoutCommonSuite, got \(String(describing: refusal))")
            return
        }
        #expect(refusal?.sipStatusCode == 488)
    }

    /// Linphone offers four suites; whichever we take, the answer carries that line's tag, and
    /// the 32-bit and AES-256 suites parse.
    @Test(arguments: [
        (SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80, UInt32(1)), (.aes128CounterModeHMACSHA1Tag32, 2),
        (.aes256CounterModeHMACSHA1Tag80, 3), (.aes256CounterModeHMACSHA1Tag32, 4),
    ])
    func answerRepeatsTheTagOfTheChosenLine(suite: SRTPCryptoSuite, tag: UInt32) throws {
        let offer = try Self.description("linphone-offer-savp.sdp")
        #expect(
            offer.audio?.crypto.map(\.suite) == [
                .aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32,
            ])
        let ours = try Self.local(suites: [suite])
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: ours)
        #expect(answer.audio?.crypto.map(\.tag) == [tag])
        #expect(answer.audio?.crypto.first?.masterKey == ours.crypto[0].masterKey)
        #expect(media.crypto?.remote == offer.audio?.crypto[Int(tag) - 1])
        // The answer read back by an offerer holding Linphone's lines: the same pair, seen from there.
        let reread = try SessionDescription(parsing: answer.text)
        #expect(reread.audio?.crypto == answer.audio?.crypto)
    }

    /// baresip answered our offer's two lines (tags 1: _80, 2: _32) with tag 1 and its key.
    @Test func offererTakesTheLineWithTheAnswersTag() throws {
        var ours = try Self.local(suites: [.aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32])
        ours.codecs = [.opus, .pcmu]
        let answer = try Self.description("baresip-answer-savp.sdp")
        let media = try MediaNegotiation.apply(answer: answer, toOfferFrom: ours)
        #expect(media.crypto?.local == ours.crypto[0])
        #expect(media.crypto?.remote == answer.audio?.crypto[0])
        #expect(media.profile == "RTP/SAVP")

        // An answer whose tag names our _32 line but says _80 matches nothing: refused.
        var forged = answer
        forged.media[0].crypto = [try SDESCryptoAttribute(tag: 2, keys: answer.audio!.crypto[0].keys)]
        #expect(throws: MediaNegotiationError.answerCryptoMismatch(tag: 2, suite: "AES_CM_128_HMAC_SHA1_80")) {
            try MediaNegotiation.apply(answer: forged, toOfferFrom: ours)
        }
    }

    /// baresip and Linphone decline rtcp-mux: RTCP then goes to RTP + 1 both ways.
    @Test func declinedRTCPMuxSendsRTCPToTheNextPort() throws {
        var ours = try Self.local()
        ours.codecs = [.opus, .pcmu]
        let answer = try Self.description("baresip-answer-avp.sdp")
        let media = try MediaNegotiation.apply(answer: answer, toOfferFrom: ours)
        #expect(!media.rtcpMux)
        #expect(media.remoteRTCPPort == media.remoteRTPPort + 1)

        let offer = try Self.description("linphone-offer-avp.sdp")
        let (ourAnswer, answered) = try MediaNegotiation.answer(to: offer, with: Self.local())
        #expect(!answered.rtcpMux)
        #expect(answered.remoteRTCPPort == offer.audio!.port + 1)
        #expect(ourAnswer.audio?.rtcpMux == false)
    }

    /// The answer's profile is the offer's: AVP, AVPF, SAVP, SAVPF; AVP with a=crypto stays AVP
    /// and still uses SRTP.
    @Test(arguments: ["RTP/AVP", "RTP/AVPF", "RTP/SAVP", "RTP/SAVPF"])
    func answerEchoesTheProfile(profile: String) throws {
        var offer = try Self.description("linphone-offer-savp.sdp")
        offer.media[0].transport = profile
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local(suites: [.aes128CounterModeHMACSHA1Tag80]))
        #expect(answer.audio?.transport == profile)
        #expect(media.profile == profile)
        #expect(media.crypto != nil, "a=crypto offered and a suite in common: SRTP whatever the profile")

        // The same without a=crypto lines: clear RTP for AVP/AVPF, refused for SAVP/SAVPF.
        offer.media[0].crypto = []
        if offer.media[0].isSecureProfile {
            #expect(throws: MediaNegotiationError.secureProfileWithoutCommonSuite(offeredSuites: [])) {
                try MediaNegotiation.answer(to: offer, with: Self.local())
            }
        } else {
            let (plain, plainMedia) = try MediaNegotiation.answer(to: offer, with: Self.local())
            #expect(plain.audio?.transport == profile)
            #expect(plainMedia.crypto == nil)
        }
    }

    /// RFC 3264 §6: baresip's audio + video offer gets two m-lines back, the video refused
    /// with port 0 and its profile and formats repeated.
    @Test func everyMediaLineIsAnswered() throws {
        let offer = try Self.description("baresip-offer-avp-video.sdp")
        #expect(offer.media.map(\.media) == ["audio", "video"])
        var withApplication = offer
        withApplication.media.append(
            MediaDescription(
                media: "application", port: 9, transport: "UDP/DTLS/SCTP", payloadTypes: [], formats: ["webrtc-datachannel"]
            ))
        let (answer, _) = try MediaNegotiation.answer(to: withApplication, with: Self.local())
        #expect(answer.media.map(\.media) == ["audio", "video", "application"])
        #expect(answer.media.map(\.port) == [30000, 0, 0])
        #expect(answer.media[1].transport == "RTP/AVP")
        #expect(answer.media[1].payloadTypes == offer.media[1].payloadTypes)
        let reread = try SessionDescription(parsing: answer.text)
        #expect(reread.media[2].formats == ["webrtc-datachannel"])
        #expect(answer.text.contains("m=video 0 RTP/AVP 96\r\n"))
    }

    /// We offer Opus at 111 and telephone-event/8000 at 102; a peer that answers with its own
    /// numbers (Opus 96, telephone-event 100, derived from baresip's answer; Linphone numbers
    /// Opus 96 in its offers) is decoded on both numbers.
    @Test func renumberedDynamicPayloadTypesAreReceived() throws {
        var ours = try Self.local()
        ours.codecs = [.opus, .pcmu]
        let text = try Fixtures.sdp("baresip-answer-avp.sdp")
            .replacingOccurrences(of: "RTP/AVP 111 0 101", with: "RTP/AVP 96 0 100")
            .replacingOccurrences(of: "a=rtpmap:111 ", with: "a=rtpmap:96 ").replacingOccurrences(of: "a=fmtp:111 ", with: "a=fmtp:96 ")
            .replacingOccurrences(of: ":101 ", with: ":100 ")
        let media = try MediaNegotiation.apply(answer: SessionDescription(parsing: text), toOfferFrom: ours)
        #expect(media.sendCodec.payloadType == 96)
        #expect(Set(media.receiveAudioPayloadTypes) == [96, 111])
        #expect(Set(media.receiveTelephoneEventPayloadTypes) == [100, 102])
    }

    /// A ptime that is not a multiple of 10 ms, or that the codec cannot send, is refused at
    /// negotiation, naming the ptime and the codec.
    @Test(arguments: [25, 15, 130])
    func unusablePacketTimeIsRefusedAtNegotiation(milliseconds: Int) throws {
        let text = try Fixtures.sdp("baresip-offer-avp.sdp").replacingOccurrences(of: "a=ptime:20", with: "a=ptime:\(milliseconds)")
        let error = #expect(throws: MediaNegotiationError.self) {
            try MediaNegotiation.answer(to: SessionDescription(parsing: text), with: Self.local(codecs: [.pcmu]))
        }
        guard case let .unsupportedPacketTime(refused, codec, _) = error else {
            Issue.record("expected unsupportedPacketTime, got \(String(describing: error))")
            return
        }
        #expect(refused == milliseconds)
        #expect(codec == "PCMU/8000")
    }

    @Test func keysNeverAppearInDescriptions() throws {
        let offer = try Self.description("linphone-offer-savp.sdp")
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local(suites: [.aes128CounterModeHMACSHA1Tag80]))
        let ourKey = try #require(answer.audio?.crypto.first).keys[0].masterKey.withUnsafeBytes { Data($0).base64EncodedString() }
        let theirKey = "ldWgewzoWctLDirQHHFsFzFLpZG4Xif+exqV1uy1"
        #expect(answer.text.contains(String(ourKey.prefix(20))))
        for text in ["\(answer)", "\(offer)", "\(media)", String(reflecting: media), "\(String(describing: media.crypto))"] {
            #expect(!text.contains(String(ourKey.prefix(20))) && !text.contains(theirKey), "\(text)")
        }
    }
}
