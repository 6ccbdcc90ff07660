import QualityMetrics
import CaptureAnalysis
import RTP
import TestSupport
import Testing

/// ``SessionDescriptionScanner`` on SIP messages written to exercise each rule.
@Suite("SIP/SDP scanner")
struct AnalyzerSessionDescriptionTests {
    private func media(_ text: String) -> [AnnouncedMedia] {
        Array(text.utf8).withUnsafeBytes { SessionDescriptionScanner.announcedMedia(inSIPMessage: $0) }
    }

    private func isSIP(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { SessionDescriptionScanner.isSIPMessage($0) }
    }

    @Test func recognisesRequestAndStatusLinesOnly() {
        #expect(isSIP("INVITE sip:bob@example.com SIP/2.0\r\n"))
        #expect(isSIP("SIP/2.0 200 OK\r\n"))
        #expect(isSIP("OPTIONS sip:x SIP/2.0\n"))
        #expect(!isSIP("GET / HTTP/1.1\r\n"))
        #expect(!isSIP("invite sip:bob SIP/2.0\r\n"))
        #expect(!isSIP(" SIP/2.0\r\n"))
        #expect(!isSIP(""))
    }

    /// Session-level `c=` applies to sections without their own; a media-level one overrides
    /// it; LF-only line ends work; rtpmap and crypto lines belong to their section.
    @Test func readsAddressesPortsFormatsAndKeys() throws {
        let found = media(
            """
            SIP/2.0 200 OK\nContent-Type: application/sdp\n\nv=0\nc=IN IP4 198.51.100.7\n\
            m=audio 4000 RTP/SAVP 0 96\na=rtpmap:96 telephone-event/8000\n\
            a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz|2^20|1:4\n\
            m=video 4002 RTP/AVP 97\nc=IN IP6 2001:db8::5\na=rtpmap:97 H264/90000\n
            """)
        try #require(found.count == 2)
        #expect(found[0].endpoint.description == "198.51.100.7:4000")
        #expect(found[0].payloadTypes == [0, 96])
        #expect(found[0].formats[96] == PayloadFormat(encodingName: "telephone-event", clockRate: 8000))
        let crypto = try #require(found[0].cryptoAttributes.first)
        #expect(crypto.suite == .aes128CounterModeHMACSHA1Tag80)
        #expect(crypto.attributeValue.contains("inline:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz"))
        #expect(!crypto.description.contains("aSBr"))
        #expect(found[1].endpoint.description == "[2001:db8::5]:4002")
        #expect(found[1].formats[97]?.clockRate == 90000)
    }

    @Test func skipsWhatItCannotRead() {
        #expect(media("INVITE sip:a SIP/2.0\r\n\r\nv=0\r\nm=audio notaport RTP/AVP 0\r\nc=IN IP4 1.2.3.4\r\n").isEmpty)
        #expect(media("INVITE sip:a SIP/2.0\r\n\r\nm=audio 4000 RTP/AVP 0\r\n").isEmpty)
        #expect(media("INVITE sip:a SIP/2.0\r\nNo body here\r\n").isEmpty)
        #expect(
            media("SIP/2.0 200 OK\r\n\r\nc=IN IP4 1.2.3.4\r\nm=audio 4000 RTP/AVP 0 300\r\na=rtpmap:200 x/1\r\n")
                .first?.payloadTypes == [0])
    }

    /// The analyzer reads SDP with the parser the media session negotiates with: Linphone's
    /// recorded SRTP offer, IPv6 address and four suites (AES_256_CM_HMAC_SHA1_32 among them).
    @Test func readsARecordedLinphoneOffer() throws {
        let body = try Fixtures.sdp("linphone-offer-savp.sdp")
        let found = media("INVITE sip:peer@127.0.0.1 SIP/2.0\r\nContent-Type: application/sdp\r\n\r\n" + body)
        try #require(found.count == 1)
        #expect(found[0].endpoint.description == "[fd00::2]:7078")
        #expect(found[0].transport == "RTP/SAVP")
        #expect(found[0].formats[96] == PayloadFormat(encodingName: "opus", clockRate: 48000))
        #expect(
            found[0].cryptoAttributes.map(\.suite) == [
                .aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32,
            ])
    }
}
