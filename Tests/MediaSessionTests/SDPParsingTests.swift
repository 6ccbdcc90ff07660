import MediaSession
import RTP
import Testing

@Suite struct SDPParsingTests {
    /// A FreeSWITCH 200 OK body in the style of the SIP + Opus sample capture, plus the
    /// attributes a softphone's offer carries.
    static let offer = """
        v=0\r
        o=- 42 42 IN IP4 10.0.2.20\r
        s=-\r
        c=IN IP4 10.0.2.20\r
        t=0 0\r
        m=audio 6000 RTP/SAVP 109 0 8 101\r
        a=rtpmap:109 opus/48000/2\r
        a=fmtp:109 useinbandfec=1; maxaveragebitrate=24000\r
        a=rtpmap:101 telephone-event/48000\r
        a=fmtp:101 0-16\r
        a=ptime:20\r
        a=maxptime:60\r
        a=rtcp:6001\r
        a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz|2^20|1:4\r
        a=crypto:2 AEAD_AES_128_GCM inline:o0HEZJPr2KbHVgVvjEvHkQ6fXrcDdO0NUm9MRQ==\r
        a=label:main\r
        a=sendonly\r

        """

    @Test func readsEveryAudioAttribute() throws {
        let description = try SessionDescription(parsing: Self.offer)
        #expect(description.origin.sessionID == 42)
        #expect(description.connection == SDPConnection(address: "10.0.2.20", isIPv6: false))
        let audio = try #require(description.audio)
        #expect(audio.port == 6000)
        #expect(audio.transport == "RTP/SAVP")
        #expect(audio.payloadTypes == [109, 0, 8, 101])
        #expect(audio.encoding(of: 109) == RTPMap(encodingName: "opus", clockRate: 48000, channels: 2))
        #expect(audio.encoding(of: 0) == RTPMap(encodingName: "PCMU", clockRate: 8000))
        #expect(audio.encoding(of: 8) == RTPMap(encodingName: "PCMA", clockRate: 8000))
        #expect(audio.formatParameters[109] == "useinbandfec=1; maxaveragebitrate=24000")
        #expect(audio.packetTimeMilliseconds == 20)
        #expect(audio.maximumPacketTimeMilliseconds == 60)
        #expect(audio.rtcpPort == 6001)
        #expect(!audio.rtcpMux)
        #expect(audio.crypto.count == 2)
        #expect(audio.crypto[0].suite == .aes128CounterModeHMACSHA1Tag80)
        #expect(audio.crypto[0].keys[0].masterKeyIdentifier == SDESMasterKeyIdentifier(value: 1, length: 4))
        #expect(audio.crypto[1].tag == 2)
        #expect(!description.description.contains("WVNfX19zZW1jdGw"))
        #expect(description.text.contains("inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz|2^20|1:4"))
        #expect(audio.direction == .sendOnly)
        #expect(audio.otherAttributes == [SDPAttribute("label", "main")])
    }

    @Test func textRoundTripsThroughTheParser() throws {
        let description = try SessionDescription(parsing: Self.offer)
        let reparsed = try SessionDescription(parsing: description.text)
        #expect(reparsed == description)
        #expect(description.text.hasSuffix("a=sendonly\r\n"))
        #expect(!description.text.contains("\n\n"))
    }

    @Test func acceptsBareLineFeedsAndIPv6() throws {
        let text = "v=0\no=alice 1 2 IN IP6 2001:db8::1\ns=call\nt=0 0\nm=audio 4000 RTP/AVP 0\nc=IN IP6 2001:db8::2\n"
        let description = try SessionDescription(parsing: text)
        #expect(description.audio?.connection == SDPConnection(address: "2001:db8::2", isIPv6: true))
        #expect(description.audio?.direction == .sendReceive)
    }

    @Test(arguments: [
        ("o=- 1 1 IN IP4 1.2.3.4\ns=-\n", 1, "must start with 'v=0'"),
        ("v=1\n", 1, "only 'v=0' is supported"),
        ("v=0\no=- 1 1 IN IP4\n", 2, "expected 6 fields"),
        ("v=0\no=- x 1 IN IP4 1.2.3.4\n", 2, "unsigned numbers"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nc=IN IPX 1.2.3.4\n", 4, "address type 'IPX'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 70000 RTP/AVP 0\n", 4, "port '70000'"),
        // A field that is only slashes (found by fuzzing: it trapped).
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nc=IN IP4 //\n", 4, "empty address"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio / RTP/AVP 0\n", 4, "port '/'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 0 abc\n", 4, "payload type 'abc'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 96\na=rtpmap:96 opus\n", 5, "expected '<encoding>/<clock rate>"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 96\na=rtpmap:96 opus/0\n", 5, "clock rate '0'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 96\na=rtpmap:96 opus/48000/9\n", 5, "channel count '9'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 96\na=ptime:soon\n", 5, "ptime 'soon'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nm=audio 4000 RTP/AVP 96\na=rtcp:0\n", 5, "rtcp port '0'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nx=1\n", 4, "unknown line type 'x'"),
        ("v=0\no=- 1 1 IN IP4 1.2.3.4\ns=-\nnonsense\n", 4, "expected '<type>=<value>'"),
    ])
    func malformedLinesAreNamed(text: String, line: Int, reason: String) {
        let error = #expect(throws: SDPError.self) { try SessionDescription(parsing: text) }
        #expect(error?.line == line)
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func missingMandatoryLinesAreReported() {
        let error = #expect(throws: SDPError.self) { try SessionDescription(parsing: "v=0\ns=-\n") }
        #expect(error?.description == "SDP: no 'o=' line")
    }
}
