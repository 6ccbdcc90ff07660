/// One Via header value (RFC 3261 §20.42): `SIP/2.0/UDP host:port;branch=z9hG4bK…;rport`.
public struct Via: Sendable, Equatable, CustomStringConvertible {
    /// The transport (`UDP`).
    public var transport: String
    /// The sent-by host.
    public var host: String
    /// The sent-by port, if written.
    public var port: UInt16?
    /// The parameters (`branch`, `received`, `rport`), in order.
    public var parameters: [(name: String, value: String)]

    /// The RFC 3261 branch prefix, the "magic cookie".
    public static let magicCookie = "z9hG4bK"

    /// A Via for `host:port` over UDP with `branch` and an empty `rport` (RFC 3581).
    public init(host: String, port: UInt16, branch: String) {
        transport = "UDP"
        self.host = host
        self.port = port
        parameters = [("branch", branch), ("rport", "")]
    }

    /// Parses one Via value.
    /// - Throws: ``SIPParseError/badValue(header:value:)`` when the protocol is not SIP/2.0 or
    ///   the sent-by is malformed.
    public init(parsing text: String) throws(SIPParseError) {
        let bad = SIPParseError.badValue(header: "Via", value: text)
        let pieces = text.split(separator: ";", omittingEmptySubsequences: false)
        let sent = pieces[0].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard sent.count == 2 else { throw bad }
        let protocolParts = sent[0].split(separator: "/").map { $0.trimmingSIPWhitespace() }
        guard protocolParts.count == 3, protocolParts[0].uppercased() == "SIP", protocolParts[1] == "2.0" else { throw bad }
        transport = protocolParts[2].uppercased()
        let sentBy = sent[1]
        if sentBy.hasPrefix("[") {
            guard let close = sentBy.firstIndex(of: "]") else { throw bad }
            host = String(sentBy[...close])
            let after = sentBy[sentBy.index(after: close)...]
            if after.isEmpty {
                port = nil
            } else {
                guard after.first == ":", let value = UInt16(after.dropFirst()) else { throw bad }
                port = value
            }
        } else {
            let hostPort = sentBy.split(separator: ":", omittingEmptySubsequences: false)
            guard hostPort.count <= 2, !hostPort[0].isEmpty else { throw bad }
            host = String(hostPort[0])
            if hostPort.count == 2 {
                guard let value = UInt16(hostPort[1]) else { throw bad }
                port = value
            } else {
                port = nil
            }
        }
        parameters = pieces.dropFirst().compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingSIPWhitespace().lowercased()
            return name.isEmpty ? nil : (name, pair.count > 1 ? pair[1].trimmingSIPWhitespace() : "")
        }
    }

    /// The value of parameter `name` (empty for a flag), or nil when absent.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The branch parameter, if any.
    public var branch: String? { parameter("branch") }

    /// The value as written.
    public var description: String {
        var text = "SIP/2.0/\(transport) \(host)"
        if let port { text += ":\(port)" }
        for parameter in parameters { text += parameter.value.isEmpty ? ";\(parameter.name)" : ";\(parameter.name)=\(parameter.value)" }
        return text
    }

    /// Compares every part.
    public static func == (left: Via, right: Via) -> Bool {
        left.description == right.description
    }
}

/// The CSeq header (RFC 3261 §20.16): a sequence number and the method.
public struct CSeq: Sendable, Equatable, CustomStringConvertible {
    /// The sequence number (below 2^31).
    public var number: UInt32
    /// The method.
    public var method: String

    /// A CSeq with the given parts.
    public init(number: UInt32, method: String) {
        self.number = number
        self.method = method
    }

    /// Parses `1 INVITE`; nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, let number = UInt32(parts[0]), number < 1 << 31, parts[1].allSatisfy(SIPMessage.isTokenCharacter) else {
            return nil
        }
        self.number = number
        method = String(parts[1])
    }

    /// `1 INVITE`.
    public var description: String { "\(number) \(method)" }
}
