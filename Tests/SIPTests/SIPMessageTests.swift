import Testing
@testable import SIP

/// The parser and serializer on real-shaped messages and on hostile bytes.
@Suite struct SIPMessageTests {
    /// An INVITE as baresip sends it (compact and long headers, folded line, SDP body).
    static let invite = """
        INVITE sip:bob@127.0.0.1:5070 SIP/2.0\r
        Via: SIP/2.0/UDP 127.0.0.1:5062;branch=z9hG4bK1a2b3c;rport\r
        Max-Forwards: 70\r
        To: <sip:bob@127.0.0.1:5070>\r
        f: "Alice" <sip:alice@127.0.0.1:5062>;tag=9fxced76sl\r
        i: 3848276298220188511@127.0.0.1\r
        CSeq: 1 INVITE\r
        Contact: <sip:alice@127.0.0.1:5062>\r
        Subject: a folded\r
         subject line\r
        Content-Type: application/sdp\r
        Content-Length: 4\r
        \r
        v=0\n
        """

    static func parseRequest(_ text: String) -> SIPRequest? {
        guard case .request(let request) = try? SIPMessage(parsing: Array(text.utf8)) else { return nil }
        return request
    }

    @Test func anInviteParsesWithCompactFormsFoldingAndBody() throws {
        let request = try #require(Self.parseRequest(Self.invite))
        #expect(request.method == "INVITE")
        #expect(request.uri == "sip:bob@127.0.0.1:5070")
        #expect(request.headers.callID == "3848276298220188511@127.0.0.1")
        #expect(request.headers.cseq == CSeq(number: 1, method: "INVITE"))
        #expect(request.headers.topVia?.branch == "z9hG4bK1a2b3c")
        #expect(request.headers.topVia?.port == 5062)
        #expect(request.headers.from?.tag == "9fxced76sl")
        #expect(request.headers.from?.displayName == "Alice")
        #expect(request.headers.to?.tag == nil)
        #expect(request.headers["Subject"] == "a folded subject line")
        #expect(request.body == Array("v=0\n".utf8))
    }

    @Test func serializingAndParsingAgainGivesTheSameMessage() throws {
        let request = try #require(Self.parseRequest(Self.invite))
        let again = try SIPMessage(parsing: request.bytes)
        #expect(again == .request(request))
        var response = SIPResponse(answering: request, statusCode: 180, toTag: "abc")
        response.headers.add("Contact", "<sip:bob@127.0.0.1:5070>")
        let parsed = try SIPMessage(parsing: response.bytes)
        guard case .response(let back) = parsed else { Issue.record("not a response"); return }
        #expect(back.statusCode == 180 && back.reason == "Ringing")
        #expect(back.headers.to?.tag == "abc")
        #expect(back.headers.values("Via") == request.headers.values("Via"))
    }

    @Test func uriPartsAreRead() throws {
        let uri = try SIPURI(parsing: "sip:alice:secret@[::1]:5080;transport=udp;lr?subject=x")
        #expect(uri.user == "alice" && uri.host == "[::1]" && uri.port == 5080)
        #expect(uri.parameter("lr") == "" && uri.parameter("transport") == "udp")
        #expect(throws: SIPParseError.self) { try SIPURI(parsing: "http://example.com") }
        #expect(throws: SIPParseError.self) { try SIPURI(parsing: "sip:bob@host:99999") }
        #expect(throws: SIPParseError.self) { try SIPURI(parsing: "sip:") }
    }

    @Test(arguments: [
        ("", SIPParseError.unterminatedHeaders),
        ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=z9hG4bKx\r\n", SIPParseError.unterminatedHeaders),
        ("HELLO\r\n\r\n", SIPParseError.missingHeader("Via")),
        ("SIP/2.0 99 Odd\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 INVITE\r\n\r\n", .badStartLine("SIP/2.0 99 Odd")),
        (
            "BYE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 INVITE\r\n\r\n",
            .badValue(header: "CSeq", value: "1 INVITE")
        ),
        (
            "BYE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\nContent-Length: 9\r\n\r\nshort",
            .badContentLength("9")
        ),
        (
            "BYE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\nContent-Length: -1\r\n\r\n",
            .badContentLength("-1")
        ),
        ("BYE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nNoColonHere\r\n\r\n", .badHeader("NoColonHere")),
        ("BYE sip:a@b SIP/2.0\r\nVia: HTTP/1.1 h\r\nFrom: <sip:a@b>\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\n\r\n", .missingHeader("Via")),
        ("BYE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b\r\nTo: <sip:a@b>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\n\r\n", .missingHeader("From")),
    ])
    func malformedMessagesAreTypedErrors(text: String, expected: SIPParseError) {
        #expect(throws: expected) { try SIPMessage(parsing: Array(text.utf8)) }
    }

    @Test func invalidUTF8AndOversizedDatagramsAreRefused() {
        #expect(throws: SIPParseError.notText) { try SIPMessage(parsing: [0xFF, 0xFE, 0x0D, 0x0A, 0x0D, 0x0A]) }
        #expect(throws: SIPParseError.tooLarge(70_000)) { try SIPMessage(parsing: [UInt8](repeating: 0x41, count: 70_000)) }
    }

    /// Random mutations of a valid message: every outcome is a message or a typed error.
    @Test func mutatedMessagesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let base = Array(Self.invite.utf8)
        for _ in 0..<20_000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            _ = try? SIPMessage(parsing: bytes)
        }
    }
}
