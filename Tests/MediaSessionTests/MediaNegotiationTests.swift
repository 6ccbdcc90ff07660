import Foundation
import MediaSession
import RTP
import Testing

@Suite struct MediaNegotiationTests {
    static let aesKey = crypto("1 AES_CM_128_HMAC_SHA1_80 inline:PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR")
    static let gcmKey = crypto("1 AEAD_AES_128_GCM inline:o0HEZJPr2KbHVgVvjEvHkQ6fXrcDdO0NUm9MRQ==")

    /// A constant `a=crypto` value of the tests, parsed.
    static func crypto(_ value: String) -> SDESCryptoAttribute {
        try! SDESCryptoAttribute(attributeValue: value)
    }

    static func alice(crypto: [SDESCryptoAttribute] = [], direction: MediaDirection = .sendReceive) -> LocalAudioCapabilities {
        LocalAudioCapabilities(
            address: "192.0.2.1", rtpPort: 40000, codecs: [.opus, .pcmu, .pcma],
            direction: direction, crypto: crypto, sessionID: 7
        )
    }

    static func bob(codecs: [SDPCodec] = [.pcma, .pcmu], crypto: [SDESCryptoAttribute] = []) -> LocalAudioCapabilities {
        LocalAudioCapabilities(address: "192.0.2.2", rtpPort: 50000, codecs: codecs, rtcpMux: false, crypto: crypto)
    }

    @Test func offerListsCodecsAndOneTelephoneEventPerClockRate() throws {
        let offer = MediaNegotiation.offer(Self.alice())
        let audio = try #require(offer.audio)
        #expect(audio.payloadTypes == [111, 0, 8, 101, 102])
        #expect(audio.encoding(of: 101) == RTPMap(encodingName: "telephone-event", clockRate: 48000))
        #expect(audio.encoding(of: 102) == RTPMap(encodingName: "telephone-event", clockRate: 8000))
        #expect(audio.transport == "RTP/AVP")
        #expect(audio.rtcpMux)
        // What we offer must read back as the same description.
        #expect(try SessionDescription(parsing: offer.text) == offer)
    }

    @Test func answerKeepsTheOfferersOrderAndPayloadTypes() throws {
        let offer = MediaNegotiation.offer(Self.alice())
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.bob())
        // One codec (the offerer's first we have) and telephone events: all the peer may send.
        #expect(answer.audio?.payloadTypes == [0, 102])
        #expect(media.sendCodec.map.encodingName == "PCMU")
        // Events are received on every telephone-event number the offer declared (48 and 8 kHz).
        #expect(media.receiveCodecs.map(\.payloadType) == [0, 101, 102])
        #expect(media.telephoneEventPayloadType == 102)
        #expect(media.remoteAddress == "192.0.2.1")
        #expect(media.remoteRTPPort == 40000)
        #expect(!media.rtcpMux)
        #expect(media.remoteRTCPPort == 40001)

        let applied = try MediaNegotiation.apply(answer: answer, toOfferFrom: Self.alice())
        #expect(applied.sendCodec.payloadType == 0)
        #expect(applied.remoteAddress == "192.0.2.2")
        #expect(applied.remoteRTPPort == 50000)
        #expect(applied.remoteRTCPPort == 50001)
        #expect(applied.telephoneEventPayloadType == 102)
        #expect(applied.direction == .sendReceive)
    }

    @Test func dynamicPayloadTypeOfTheOfferIsUsed() throws {
        let offer = try SessionDescription(parsing: SDPParsingTests.offer.replacingOccurrences(of: "RTP/SAVP", with: "RTP/AVP"))
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.bob(codecs: [.opus]))
        #expect(media.sendCodec.payloadType == 109)
        #expect(media.sendCodec.formatParameters == "useinbandfec=1; maxaveragebitrate=24000")
        #expect(media.telephoneEventPayloadType == 101)
        #expect(media.packetTimeMilliseconds == 20)
        #expect(media.remoteRTCPPort == 6001)
        #expect(answer.audio?.encoding(of: 109)?.encodingName == "opus")
    }

    @Test(arguments: [
        (MediaDirection.sendReceive, MediaDirection.sendReceive, MediaDirection.sendReceive),
        (.sendOnly, .sendReceive, .receiveOnly),
        (.receiveOnly, .sendReceive, .sendOnly),
        (.inactive, .sendReceive, .inactive),
        (.sendReceive, .sendOnly, .sendOnly),
        (.sendOnly, .sendOnly, .inactive),
    ])
    func holdAndResumeDirections(offered: MediaDirection, willing: MediaDirection, answered: MediaDirection) throws {
        let offer = MediaNegotiation.offer(Self.alice(direction: offered))
        var bob = Self.bob()
        bob.direction = willing
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: bob)
        #expect(answer.audio?.direction == answered)
        #expect(media.direction == answered)
        let applied = try MediaNegotiation.apply(answer: answer, toOfferFrom: Self.alice(direction: offered))
        #expect(applied.direction.sends == (offered.sends && answered.receives))
        #expect(applied.direction.receives == (offered.receives && answered.sends))
    }

    @Test func srtpPicksTheFirstCommonSuiteAndRepeatsTheTag() throws {
        let offer = try SessionDescription(parsing: SDPParsingTests.offer)
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.bob(codecs: [.pcmu], crypto: [Self.gcmKey]))
        #expect(answer.audio?.transport == "RTP/SAVP")
        #expect(answer.audio?.crypto.map(\.tag) == [2])
        #expect(answer.audio?.crypto.first?.masterKey == Self.gcmKey.masterKey)
        #expect(media.crypto?.remote == offer.audio?.crypto[1])
        #expect(media.crypto?.local == answer.audio?.crypto.first)
    }

    @Test func refusals() throws {
        let offer = try SessionDescription(parsing: SDPParsingTests.offer)
        let aes256 = try SDESCryptoAttribute(tag: 1, key: SDESKeyParameter(masterKey: .random(for: .aes256CounterModeHMACSHA1Tag80)))
        #expect(throws: MediaNegotiationError.secureProfileWithoutCommonSuite(offeredSuites: ["AES_CM_128_HMAC_SHA1_80", "AEAD_AES_128_GCM"])) {
            try MediaNegotiation.answer(to: offer, with: Self.bob(crypto: [aes256]))
        }

        let noCodec = #expect(throws: MediaNegotiationError.self) {
            try MediaNegotiation.answer(to: offer, with: Self.bob(codecs: [SDPCodec(map: RTPMap(encodingName: "G722", clockRate: 8000), payloadType: 9)]))
        }
        #expect(noCodec?.description.contains("no codec in common") == true)
        #expect(noCodec?.description.contains("opus/48000/2") == true)
        #expect(noCodec?.sipStatusCode == 488)

        var rejected = MediaNegotiation.offer(Self.alice())
        rejected.media[0].port = 0
        #expect(throws: MediaNegotiationError.audioRejected) { try MediaNegotiation.apply(answer: rejected, toOfferFrom: Self.alice()) }

        let plainAnswer = MediaNegotiation.offer(Self.bob())
        #expect(throws: MediaNegotiationError.srtpRequired(offeredSuites: [])) {
            try MediaNegotiation.apply(answer: plainAnswer, toOfferFrom: Self.alice(crypto: [Self.aesKey]))
        }
    }
}
