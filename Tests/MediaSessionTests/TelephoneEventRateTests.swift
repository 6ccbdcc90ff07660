import Foundation
import MediaSession
import RTP
import TestSupport
import Testing

/// RFC 4733 events at 8000 beside Opus: baresip offers and answers only telephone-event/8000,
/// whatever the audio codec, so an Opus offer with only telephone-event/48000 left calls with
/// baresip without DTMF (issue 12). Built from the real offers and answers in Tests/Fixtures/sdp.
@Suite struct TelephoneEventRateTests {
    private static func local(_ codecs: [SDPCodec]) -> LocalAudioCapabilities {
        LocalAudioCapabilities(address: "192.0.2.9", rtpPort: 30000, codecs: codecs)
    }

    private static func eventRates(_ section: MediaDescription?) -> [Int: Int] {
        guard let section else { return [:] }
        var rates: [Int: Int] = [:]
        for payloadType in section.payloadTypes {
            if let map = section.encoding(of: payloadType), map.encodingName == "telephone-event" { rates[payloadType] = map.clockRate }
        }
        return rates
    }

    @Test func opusOfferCarriesEventsAtItsRateAndAt8000() throws {
        let opus = try SessionDescription(parsing: MediaNegotiation.offer(Self.local([.opus])).text)
        #expect(Self.eventRates(opus.audio) == [101: 48000, 102: 8000])
        // A codec at 8 kHz already brings the 8000 events: no second line.
        let pcmu = try SessionDescription(parsing: MediaNegotiation.offer(Self.local([.pcmu])).text)
        #expect(Self.eventRates(pcmu.audio) == [101: 8000])
    }

    /// baresip's answer (its Opus and telephone-event/8000, PCMU dropped because the offer
    /// here is Opus alone): we send events on its 101 counted at 8000 and receive on both.
    @Test func opusOffererTakesTheAnswersEventsAt8000() throws {
        let text = try Fixtures.sdp("baresip-answer-avp.sdp")
            .replacingOccurrences(of: "RTP/AVP 111 0 101", with: "RTP/AVP 111 101")
            .replacingOccurrences(of: "a=rtpmap:0 PCMU/8000\r\n", with: "")
        let media = try MediaNegotiation.apply(answer: SessionDescription(parsing: text), toOfferFrom: Self.local([.opus]))
        #expect(media.sendCodec.map.encodingName == "opus")
        #expect(media.telephoneEventPayloadType == 101)
        #expect(media.telephoneEventClockRate == 8000)
        #expect(Set(media.receiveTelephoneEventPayloadTypes) == [101, 102])
    }

    /// baresip's offer (PCMU, PCMA, Opus at 96, telephone-event/8000 at 101) answered with Opus:
    /// the answer names the offer's events at 8000 and the session counts them at 8000.
    @Test func opusAnswererUsesTheOffersEventsAt8000() throws {
        let offer = try SessionDescription(parsing: Fixtures.sdp("baresip-offer-avp.sdp"))
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local([.opus]))
        #expect(answer.audio?.payloadTypes == [96, 101])
        #expect(Self.eventRates(answer.audio) == [101: 8000])
        #expect(media.telephoneEventPayloadType == 101)
        #expect(media.telephoneEventClockRate == 8000)
    }

    /// Linphone offers events at 48000, 16000 and 8000: the answer names the one at the audio
    /// codec's rate, and events on any of the three numbers are received.
    @Test(arguments: [(SDPCodec.opus, 99, 48000), (.pcmu, 101, 8000)])
    func answererReceivesEveryOfferedEventRate(codec: SDPCodec, payloadType: Int, rate: Int) throws {
        let offer = try SessionDescription(parsing: Fixtures.sdp("linphone-offer-avp.sdp"))
        let (answer, media) = try MediaNegotiation.answer(to: offer, with: Self.local([codec]))
        #expect(Self.eventRates(answer.audio) == [payloadType: rate])
        #expect(media.telephoneEventPayloadType == payloadType)
        #expect(media.telephoneEventClockRate == rate)
        #expect(Set(media.receiveTelephoneEventPayloadTypes) == [99, 100, 101])
    }
}

extension LiveCalls {
    @Suite struct TelephoneEventRateCalls {
        /// An Opus call whose answer names telephone-event/8000 (as baresip's does): digits go
        /// both ways exactly once, the offerer's counted at 8000, the answerer's at 48000.
        @Test func opusCallWithEventsAt8000CarriesDigitsBothWays() throws {
            let call = try LoopbackCall(codecs: [.opus], sampleRate: 48000, sourceSeconds: 1) { _ in
            } adjustCallee: { _ in
            } rewriteAnswer: {
                $0.replacingOccurrences(of: "telephone-event/48000", with: "telephone-event/8000")
            }
            #expect(call.callerMedia.telephoneEventClockRate == 8000)
            #expect(call.calleeMedia.telephoneEventClockRate == 48000)
            try call.caller.sendDTMF("12")
            try call.callee.sendDTMF("34")
            func digits(_ recorder: EventRecorder) -> String {
                String(recorder.events.compactMap { event -> Character? in if case let .dtmfReceived(digit) = event { digit } else { nil } })
            }
            waitUntil(seconds: 10) { digits(call.calleeEvents).count >= 2 && digits(call.callerEvents).count >= 2 }
            Thread.sleep(forTimeInterval: 0.2)  // any duplicate would have arrived by now
            call.stop()
            #expect(digits(call.calleeEvents) == "12")
            #expect(digits(call.callerEvents) == "34")
        }
    }
}
