extension SIPResponse {
    /// A response to `request` (RFC 3261 §8.2.6): Via, From, Call-ID and CSeq copied, To
    /// copied with `toTag` added when it has none, the standard reason phrase for `statusCode`.
    public init(answering request: SIPRequest, statusCode: Int, reason: String? = nil, toTag: String? = nil) {
        var headers = SIPHeaders()
        for field in request.headers where ["via", "from", "call-id", "cseq", "record-route"].contains(SIPHeaders.canonical(field.name)) {
            // Record-Route is copied only into responses that create dialogs.
            if SIPHeaders.canonical(field.name) == "record-route", !(request.method == "INVITE" && (101...299).contains(statusCode)) { continue }
            headers.add(field.name, field.value)
        }
        if var to = request.headers.to {
            if to.tag == nil, let toTag, statusCode > 100 { to.tag = toTag }
            headers.add("To", to.description)
        } else if let to = request.headers["To"] {
            headers.add("To", to)
        }
        self.init(statusCode: statusCode, reason: reason ?? Self.standardReason(statusCode), headers: headers)
    }

    /// The RFC 3261 §21 reason phrase of a status code.
    static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Trying"
        case 180: "Ringing"
        case 183: "Session Progress"
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 481: "Call/Transaction Does Not Exist"
        case 486: "Busy Here"
        case 487: "Request Terminated"
        case 488: "Not Acceptable Here"
        case 491: "Request Pending"
        case 500: "Server Internal Error"
        case 501: "Not Implemented"
        case 603: "Decline"
        default: "Status \(code)"
        }
    }
}
