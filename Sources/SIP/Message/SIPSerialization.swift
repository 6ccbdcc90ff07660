extension SIPRequest {
    /// The request as it goes on the wire, with Content-Length set to the body's size.
    public var bytes: [UInt8] {
        SIPMessage.serialize(startLine: "\(method) \(uri) SIP/2.0", headers: headers, body: body)
    }
}

extension SIPResponse {
    /// The response as it goes on the wire, with Content-Length set to the body's size.
    public var bytes: [UInt8] {
        SIPMessage.serialize(startLine: "SIP/2.0 \(statusCode) \(reason)", headers: headers, body: body)
    }
}

extension SIPMessage {
    /// The message as it goes on the wire.
    public var bytes: [UInt8] {
        switch self {
        case .request(let request): request.bytes
        case .response(let response): response.bytes
        }
    }

    static func serialize(startLine: String, headers: SIPHeaders, body: [UInt8]) -> [UInt8] {
        var headers = headers
        headers.set("Content-Length", String(body.count))
        var text = startLine + "\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8) + body
    }
}
