extension SIPResponse {
    /// The 400 Bad Request (RFC 3261 §8.2, §16.3, §18.3, §21.4.1) for a datagram that did not
    /// parse (`error`) but is readable enough to answer: a request line `METHOD URI SIP/2.0`,
    /// the end of the header section, and a readable Via, From, To, Call-ID and CSeq (lines
    /// that are not header fields are passed over). The reason phrase names the problem
    /// without echoing the sender's bytes. Nil for anything else (a response, an ACK, which is
    /// never answered, binary noise, a truncated header section): such datagrams are dropped.
    public init?(badRequest bytes: [UInt8], error: SIPParseError) {
        guard bytes.count <= SIPMessage.maximumBytes, let (headerEnd, _) = SIPMessage.headerBoundary(in: bytes),
            let head = String(validating: bytes[..<headerEnd], as: UTF8.self)
        else { return nil }
        let lines = SIPMessage.unfoldedLines(head).drop { $0.isEmpty }
        guard let startLine = lines.first else { return nil }
        let parts = startLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2] == "SIP/2.0", parts[0] != "ACK", parts[0].allSatisfy(SIPMessage.isTokenCharacter),
            let headers = try? SIPMessage.headerFields(lines.dropFirst(), skippingBadLines: true),
            (try? SIPMessage.checkMandatoryHeaders(headers)) != nil
        else { return nil }
        let request = SIPRequest(method: String(parts[0]), uri: String(parts[1]), headers: headers)
        self.init(answering: request, statusCode: 400, reason: Self.badRequestReason(error), toTag: SIPIdentifiers.token(10))
    }

    /// A reason phrase for a 400 naming what was wrong (§21.4.1), in our words only.
    private static func badRequestReason(_ error: SIPParseError) -> String {
        switch error {
        case .badStartLine: "Bad Request-Line"
        case .badHeader: "Malformed Header Line"
        case .badContentLength: "Bad Content-Length"
        // The parser names these fields itself (Via, From, To, Call-ID, CSeq), never from input.
        case .missingHeader(let name), .badValue(let name, _): "Bad \(name) Header Field"
        case .unterminatedHeaders, .notText, .tooLarge: "Bad Request"
        }
    }
}
