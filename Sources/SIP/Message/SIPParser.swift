extension SIPMessage {
    /// The largest datagram accepted (the UDP maximum).
    public static let maximumBytes = 65_535

    /// Parses one SIP message from a datagram (RFC 3261 §7): start line, header fields (folded
    /// lines joined), and the body Content-Length announces (the rest of the datagram when it
    /// has none). Requests must carry Via, From, To, Call-ID and CSeq with a CSeq method equal
    /// to the request's; responses Via, From, To, Call-ID and CSeq.
    /// - Throws: ``SIPParseError`` saying what was wrong; never traps on any input.
    public init(parsing bytes: [UInt8]) throws(SIPParseError) {
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes.count) }
        guard let (headerEnd, bodyStart) = Self.headerBoundary(in: bytes) else { throw .unterminatedHeaders }
        guard let head = String(validating: bytes[..<headerEnd], as: UTF8.self) else { throw .notText }
        var lines = Self.unfoldedLines(head)
        // RFC 3261 §7.5: empty lines before the start line are ignored.
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let startLine = lines.first else { throw .badStartLine("") }
        let headers = try Self.headerFields(lines.dropFirst(), skippingBadLines: false)
        let remaining = bytes.count - bodyStart
        var bodyLength = remaining
        if let lengthText = headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0 else { throw .badContentLength(lengthText) }
            guard length <= remaining else { throw .badContentLength(lengthText) }
            bodyLength = length
        }
        let body = Array(bytes[bodyStart..<(bodyStart + bodyLength)])
        try Self.checkMandatoryHeaders(headers)
        if startLine.hasPrefix("SIP/") {
            self = .response(try Self.response(startLine, headers: headers, body: body))
        } else {
            let request = try Self.request(startLine, headers: headers, body: body)
            guard headers.cseq?.method == request.method else {
                throw .badValue(header: "CSeq", value: headers["CSeq"] ?? "")
            }
            self = .request(request)
        }
    }

    /// The header fields of `lines`; a line without a colon or with a bad name throws, or is
    /// skipped when `skippingBadLines`.
    static func headerFields(_ lines: ArraySlice<String>, skippingBadLines: Bool) throws(SIPParseError) -> SIPHeaders {
        var headers = SIPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                if skippingBadLines { continue }
                throw .badHeader(line)
            }
            let name = line[..<colon].trimmingSIPWhitespace()
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                if skippingBadLines { continue }
                throw .badHeader(line)
            }
            headers.add(name, line[line.index(after: colon)...].trimmingSIPWhitespace())
        }
        return headers
    }

    static func headerBoundary(in bytes: [UInt8]) -> (headerEnd: Int, bodyStart: Int)? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                // LF LF or LF CR LF ends the headers (CR LF CR LF is the second form).
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return (index, index + 3) }
            }
            index += 1
        }
        return nil
    }

    /// Splits the header section into lines (CRLF or LF), joining continuation lines.
    static func unfoldedLines(_ head: String) -> [String] {
        var lines: [String] = []
        // "\r\n" is one Character in Swift: split on it and on a bare LF.
        for raw in head.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            let line = raw.last == "\r" ? raw.dropLast() : raw[...]
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty, !lines[lines.count - 1].isEmpty {
                lines[lines.count - 1] += " " + line.trimmingSIPWhitespace()
            } else {
                lines.append(String(line))
            }
        }
        return lines
    }

    static func checkMandatoryHeaders(_ headers: SIPHeaders) throws(SIPParseError) {
        guard let via = headers.values("Via").first, (try? Via(parsing: via)) != nil else { throw .missingHeader("Via") }
        guard headers.from != nil else { throw .missingHeader("From") }
        guard headers.to != nil else { throw .missingHeader("To") }
        guard let callID = headers.callID, !callID.isEmpty else { throw .missingHeader("Call-ID") }
        guard headers.cseq != nil else { throw .missingHeader("CSeq") }
    }

    private static func request(_ line: String, headers: SIPHeaders, body: [UInt8]) throws(SIPParseError) -> SIPRequest {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2] == "SIP/2.0", parts[0].allSatisfy(isTokenCharacter),
            (try? SIPURI(parsing: String(parts[1]))) != nil
        else { throw .badStartLine(line) }
        return SIPRequest(method: String(parts[0]), uri: String(parts[1]), headers: headers, body: body)
    }

    private static func response(_ line: String, headers: SIPHeaders, body: [UInt8]) throws(SIPParseError) -> SIPResponse {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "SIP/2.0", parts[1].count == 3, let code = Int(parts[1]), (100...699).contains(code) else {
            throw .badStartLine(line)
        }
        return SIPResponse(statusCode: code, reason: parts.count == 3 ? String(parts[2]) : "", headers: headers, body: body)
    }

    /// RFC 3261 §25.1 `token` characters.
    static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue else { return false }
        if (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii) { return true }
        return "-.!%*_+`'~".contains(character)
    }
}
