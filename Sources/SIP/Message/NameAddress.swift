/// A name-address header value (From, To, Contact, Route, Record-Route):
/// `"Display" <sip:…>;tag=…` or a bare `sip:…;tag=…`.
public struct NameAddress: Sendable, Equatable, CustomStringConvertible {
    /// The display name, without quotes, if any.
    public var displayName: String?
    /// The URI.
    public var uri: SIPURI
    /// The header parameters after the address (`tag`, `expires`), in order.
    public var parameters: [(name: String, value: String)]

    /// An address with the given parts.
    public init(displayName: String? = nil, uri: SIPURI, parameters: [(name: String, value: String)] = []) {
        self.displayName = displayName
        self.uri = uri
        self.parameters = parameters
    }

    /// Parses `text`.
    /// - Throws: ``SIPParseError/badValue(header:value:)`` for a malformed address or URI.
    public init(parsing text: String) throws(SIPParseError) {
        let bad = SIPParseError.badValue(header: "address", value: text)
        let trimmed = text.trimmingSIPWhitespace()
        var parameterText: Substring = ""
        if let open = trimmed.firstIndex(of: "<") {
            guard let close = trimmed[open...].firstIndex(of: ">") else { throw bad }
            let name = trimmed[..<open].trimmingSIPWhitespace()
            displayName = name.isEmpty ? nil : (name.hasPrefix("\"") && name.hasSuffix("\"") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name)
            uri = try SIPURI(parsing: String(trimmed[trimmed.index(after: open)..<close]))
            parameterText = trimmed[trimmed.index(after: close)...]
        } else {
            // Without angle brackets, parameters after ';' belong to the header (RFC 3261 §20.10).
            let semicolon = trimmed.firstIndex(of: ";") ?? trimmed.endIndex
            displayName = nil
            uri = try SIPURI(parsing: String(trimmed[..<semicolon]))
            parameterText = trimmed[semicolon...]
        }
        parameters = parameterText.split(separator: ";").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingSIPWhitespace().lowercased()
            return name.isEmpty ? nil : (name, pair.count > 1 ? pair[1].trimmingSIPWhitespace() : "")
        }
    }

    /// The `tag` parameter, if any.
    public var tag: String? {
        get { parameters.first { $0.name == "tag" }?.value }
        set {
            parameters.removeAll { $0.name == "tag" }
            if let newValue { parameters.append(("tag", newValue)) }
        }
    }

    /// The value as written, always with angle brackets.
    public var description: String {
        var text = displayName.map { "\"\($0)\" " } ?? ""
        text += "<\(uri)>"
        for parameter in parameters { text += parameter.value.isEmpty ? ";\(parameter.name)" : ";\(parameter.name)=\(parameter.value)" }
        return text
    }

    /// Compares display name, URI and parameters.
    public static func == (left: NameAddress, right: NameAddress) -> Bool {
        left.description == right.description
    }
}
