/// A `sip:` URI (RFC 3261 §19.1): `sip:user@host:port;param=value?headers`.
public struct SIPURI: Sendable, Equatable, CustomStringConvertible {
    /// The scheme, `sip` (or `sips`, parsed but never dialled here).
    public var scheme: String
    /// The user part, if any.
    public var user: String?
    /// The host: a name, an IPv4 literal or a bracketed IPv6 literal.
    public var host: String
    /// The port, if written.
    public var port: UInt16?
    /// The URI parameters (`transport=udp`, `lr`), in order; flags have an empty value.
    public var parameters: [(name: String, value: String)]

    /// A URI with the given parts.
    public init(user: String? = nil, host: String, port: UInt16? = nil, parameters: [(name: String, value: String)] = []) {
        scheme = "sip"
        self.user = user
        self.host = host
        self.port = port
        self.parameters = parameters
    }

    /// Parses `text`.
    /// - Throws: ``SIPParseError/badValue(header:value:)`` when it is not a sip or sips URI
    ///   with a host and, if any, a numeric port.
    public init(parsing text: String) throws(SIPParseError) {
        let bad = SIPParseError.badValue(header: "URI", value: text)
        guard let colon = text.firstIndex(of: ":") else { throw bad }
        let scheme = text[..<colon].lowercased()
        guard scheme == "sip" || scheme == "sips" else { throw bad }
        var rest = text[text.index(after: colon)...]
        if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
        var parameterText: Substring = ""
        // Parameters start at the first ';' after the user part.
        let hostStart = rest.lastIndex(of: "@").map(rest.index(after:)) ?? rest.startIndex
        if let semicolon = rest[hostStart...].firstIndex(of: ";") {
            parameterText = rest[rest.index(after: semicolon)...]
            rest = rest[..<semicolon]
        }
        var user: String?
        var hostPort = rest
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            user = String(userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            guard user?.isEmpty == false else { throw bad }
            hostPort = rest[rest.index(after: at)...]
        }
        var host = hostPort
        var port: UInt16?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw bad }
            host = hostPort[...close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":", let value = UInt16(after.dropFirst()) else { throw bad }
                port = value
            }
        } else if let portColon = hostPort.firstIndex(of: ":") {
            host = hostPort[..<portColon]
            guard let value = UInt16(hostPort[hostPort.index(after: portColon)...]) else { throw bad }
            port = value
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "<" && $0 != ">" && $0 != "\"" }) else { throw bad }
        self.scheme = scheme
        self.user = user
        self.host = String(host)
        self.port = port
        parameters = parameterText.split(separator: ";").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pair[0]).lowercased(), pair.count > 1 ? String(pair[1]) : "")
        }
    }

    /// The value of parameter `name`, or nil.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.lowercased() }?.value
    }

    /// The URI as written: `sip:user@host:port;params`.
    public var description: String {
        var text = "\(scheme):"
        if let user { text += "\(user)@" }
        text += host
        if let port { text += ":\(port)" }
        for parameter in parameters { text += parameter.value.isEmpty ? ";\(parameter.name)" : ";\(parameter.name)=\(parameter.value)" }
        return text
    }

    /// Compares scheme, user, host, port and parameters.
    public static func == (left: SIPURI, right: SIPURI) -> Bool {
        left.description == right.description
    }
}
