import SIP

extension FuzzTarget {
    /// The SIP module's fuzz targets.
    static let sip: [FuzzTarget] = [sipMessage]

    /// Any bytes as one SIP datagram through the parser and, when it parses, through the
    /// serializer and the header readers (Via, From, To, Contact, CSeq, digest challenges);
    /// when it does not, through the 400 Bad Request a user agent would answer.
    static let sipMessage = FuzzTarget(name: "sip-message") { bytes in
        let message: SIPMessage
        do throws(SIPParseError) {
            message = try SIPMessage(parsing: Array(bytes))
        } catch {
            _ = SIPResponse(badRequest: Array(bytes), error: error)?.bytes
            return
        }
        _ = message.bytes
        let headers = message.headers
        _ = (headers.topVia, headers.from, headers.to, headers.contact, headers.cseq)
        for value in headers.fieldValues("WWW-Authenticate") + headers.fieldValues("Proxy-Authenticate") {
            _ = DigestChallenge(parsing: value)
        }
        if case .request(let request) = message {
            _ = SIPResponse(answering: request, statusCode: 400, toTag: "t").bytes
        }
    }
}
