/// The header fields of a SIP message in the order they arrived, looked up by name without
/// regard to case and with RFC 3261 §7.3.3 compact forms (`v` for Via, `i` for Call-ID, …).
public struct SIPHeaders: Sendable, Equatable, Sequence {
    /// One header field line: its name as written and its value, trimmed.
    public struct Field: Sendable, Equatable {
        /// The name as written (`Via`, `v`).
        public var name: String
        /// The value after the colon, without surrounding white space.
        public var value: String
    }

    /// The fields, in order.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The canonical long form of a field name: `v` → `via`, lower-cased.
    static func canonical(_ name: String) -> String {
        let lower = name.lowercased()
        switch lower {
        case "v": return "via"
        case "f": return "from"
        case "t": return "to"
        case "i": return "call-id"
        case "m": return "contact"
        case "l": return "content-length"
        case "c": return "content-type"
        case "k": return "supported"
        case "s": return "subject"
        case "e": return "content-encoding"
        default: return lower
        }
    }

    /// The value of the first field named `name`, or nil.
    public subscript(name: String) -> String? {
        let key = Self.canonical(name)
        return fields.first { Self.canonical($0.name) == key }?.value
    }

    /// Every value of the fields named `name`, in order, each comma-separated list split into
    /// its elements (commas inside quotes or angle brackets do not split).
    public func values(_ name: String) -> [String] {
        let key = Self.canonical(name)
        return fields.filter { Self.canonical($0.name) == key }.flatMap { Self.splitList($0.value) }
    }

    /// The whole value of every field named `name`, in order, not split at commas (for
    /// headers such as WWW-Authenticate whose values contain commas).
    public func fieldValues(_ name: String) -> [String] {
        let key = Self.canonical(name)
        return fields.filter { Self.canonical($0.name) == key }.map(\.value)
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field holding `value` (at the first one's place).
    public mutating func set(_ name: String, _ value: String) {
        let key = Self.canonical(name)
        let index = fields.firstIndex { Self.canonical($0.name) == key } ?? fields.count
        fields.removeAll { Self.canonical($0.name) == key }
        fields.insert(Field(name: name, value: value), at: Swift.min(index, fields.count))
    }

    /// Splits a header value at top-level commas.
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var angle = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, character == "<" {
                angle = true
            } else if !quoted, character == ">" {
                angle = false
            } else if !quoted, !angle, character == "," {
                parts.append(current.trimmingSIPWhitespace())
                current = ""
                continue
            }
            current.append(character)
        }
        let last = current.trimmingSIPWhitespace()
        if !last.isEmpty || !parts.isEmpty { parts.append(last) }
        return parts.filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSIPWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
