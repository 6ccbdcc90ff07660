import Testing
@testable import SIP

/// RFC 3261 §8.2/§16.3/§18.3: a request that does not parse but whose Via, From, To, Call-ID
/// and CSeq can be read is answered 400 Bad Request, naming the problem; anything less
/// readable (and any response or ACK) is dropped.
@Suite struct BadRequestTests {
    static let headers =
        "Via: SIP/2.0/UDP 192.0.2.7:5080;branch=z9hG4bKbad1;rport\r\nFrom: <sip:mallory@192.0.2.7>;tag=m1\r\n"
        + "To: <sip:alice@192.0.2.1>\r\nCall-ID: bad-1@192.0.2.7\r\n"

    static func answer(_ text: String) -> SIPResponse? {
        let bytes = Array(text.utf8)
        do {
            _ = try SIPMessage(parsing: bytes)
            Issue.record("parsed: \(text)")
            return nil
        } catch {
            return SIPResponse(badRequest: bytes, error: error)
        }
    }

    @Test(arguments: [
        // CSeq's method is not the request's (the answer copies CSeq as it came).
        ("INVITE sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: 1 BYE\r\n\r\n", "Bad CSeq Header Field", "BYE"),
        // Content-Length promises more than the datagram holds (§18.3).
        ("MESSAGE sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: 2 MESSAGE\r\nContent-Length: 900\r\n\r\nhi", "Bad Content-Length", "MESSAGE"),
        // A header line without a colon among readable mandatory fields.
        ("BYE sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: 3 BYE\r\nGarbage line\r\n\r\n", "Malformed Header Line", "BYE"),
        // A Request-URI that is not a SIP URI.
        ("OPTIONS http://example.com SIP/2.0\r\n\(headers)CSeq: 4 OPTIONS\r\n\r\n", "Bad Request-Line", "OPTIONS"),
    ])
    func readableBadRequestsGet400(text: String, reason: String, cseqMethod: String) throws {
        let response = try #require(Self.answer(text))
        #expect(response.statusCode == 400)
        #expect(response.reason == reason)
        #expect(response.headers.topVia?.branch == "z9hG4bKbad1")
        #expect(response.headers.callID == "bad-1@192.0.2.7")
        #expect(response.headers.cseq?.method == cseqMethod)
        #expect(response.headers.from?.tag == "m1")
        #expect(response.headers.to?.tag != nil)
        // What goes on the wire parses as that response.
        guard case .response(let sent) = try SIPMessage(parsing: response.bytes) else {
            Issue.record("the 400 does not parse as a response")
            return
        }
        #expect(sent.statusCode == 400 && sent.reason == reason && sent.headers.callID == "bad-1@192.0.2.7")
    }

    @Test(arguments: [
        // No Call-ID: nothing to answer on.
        "BYE sip:alice@192.0.2.1 SIP/2.0\r\nVia: SIP/2.0/UDP 192.0.2.7;branch=z9hG4bKx\r\nFrom: <sip:m@h>;tag=1\r\nTo: <sip:a@h>\r\nCSeq: 1 BYE\r\n\r\n",
        // CSeq unreadable.
        "BYE sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: nine BYE\r\n\r\n",
        // ACK is never answered.
        "ACK sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: 1 INVITE\r\n\r\n",
        // A response is never answered.
        "SIP/2.0 99 Odd\r\n\(headers)CSeq: 1 INVITE\r\n\r\n",
        // Another SIP version (a 505 would need a parse we do not attempt).
        "BYE sip:alice@192.0.2.1 SIP/3.0\r\n\(headers)CSeq: 1 BYE\r\n\r\n",
        // The header section never ends.
        "BYE sip:alice@192.0.2.1 SIP/2.0\r\n\(headers)CSeq: 1 BYE\r\n",
    ])
    func unreadableDatagramsAreDropped(text: String) {
        #expect(Self.answer(text) == nil)
    }

    @Test func binaryNoiseIsDropped() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let error = #expect(throws: SIPParseError.self, performing: { try SIPMessage(parsing: bytes) }) {
                #expect(SIPResponse(badRequest: bytes, error: error) == nil)
            }
        }
    }
}
