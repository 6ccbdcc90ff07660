/// A SIP request (RFC 3261 §7.1): a method, a Request-URI, header fields and a body.
public struct SIPRequest: Sendable, Equatable {
    /// The method (`INVITE`, `BYE`, …), case-sensitive as RFC 3261 requires.
    public var method: String
    /// The Request-URI as written.
    public var uri: String
    /// The header fields.
    public var headers: SIPHeaders
    /// The body (an SDP description for INVITE and its answers), empty when none.
    public var body: [UInt8]

    /// A request with the given parts.
    public init(method: String, uri: String, headers: SIPHeaders = SIPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
    }
}

/// A SIP response (RFC 3261 §7.2): a status code, a reason phrase, header fields and a body.
public struct SIPResponse: Sendable, Equatable {
    /// The status code, 100–699.
    public var statusCode: Int
    /// The reason phrase.
    public var reason: String
    /// The header fields.
    public var headers: SIPHeaders
    /// The body, empty when none.
    public var body: [UInt8]

    /// A response with the given parts.
    public init(statusCode: Int, reason: String, headers: SIPHeaders = SIPHeaders(), body: [UInt8] = []) {
        self.statusCode = statusCode
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Whether the response is provisional (1xx).
    public var isProvisional: Bool { statusCode < 200 }
}

/// A SIP request or response.
public enum SIPMessage: Sendable, Equatable {
    /// A request.
    case request(SIPRequest)
    /// A response.
    case response(SIPResponse)

    /// The header fields of either kind.
    public var headers: SIPHeaders {
        switch self {
        case .request(let request): request.headers
        case .response(let response): response.headers
        }
    }
}

extension SIPHeaders {
    /// The Call-ID.
    public var callID: String? { self["Call-ID"] }
    /// The CSeq, parsed; nil when absent or malformed.
    public var cseq: CSeq? { self["CSeq"].flatMap(CSeq.init(parsing:)) }
    /// The topmost Via, parsed; nil when absent or malformed.
    public var topVia: Via? { values("Via").first.flatMap { try? Via(parsing: $0) } }
    /// The From header, parsed.
    public var from: NameAddress? { self["From"].flatMap { try? NameAddress(parsing: $0) } }
    /// The To header, parsed.
    public var to: NameAddress? { self["To"].flatMap { try? NameAddress(parsing: $0) } }
    /// The first Contact, parsed.
    public var contact: NameAddress? { values("Contact").first.flatMap { try? NameAddress(parsing: $0) } }
}
