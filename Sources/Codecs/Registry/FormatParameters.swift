/// The `name=value` pairs of an SDP `a=fmtp` value (`"minptime=10; useinbandfec=1"`), names
/// lower-cased, each name at most once.
struct FormatParameters {
    /// Values by lower-cased name.
    private(set) var values: [String: String] = [:]

    /// Splits `text` at `;`, trimming blanks; an empty text has no parameters.
    init(_ text: String) throws(CodecRegistryError) {
        for entry in text.split(separator: ";") {
            let trimmed = entry.trimmingBlanks()
            if trimmed.isEmpty { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else {
                throw .malformedParameter(String(trimmed))
            }
            let name = parts[0].trimmingBlanks().lowercased()
            let value = String(parts[1].trimmingBlanks())
            guard !name.isEmpty, !value.isEmpty else {
                throw .malformedParameter(String(trimmed))
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .malformedParameter("\(name) is given twice")
            }
        }
    }

    /// The integer value of `name`, if present, which must lie in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CodecRegistryError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else {
            throw .invalidParameter(name: name, value: text, reason: "not an integer")
        }
        guard range.contains(value) else {
            throw .invalidParameter(name: name, value: text, reason: "outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The 0/1 flag `name`, if present.
    func flag(_ name: String) throws(CodecRegistryError) -> Bool? {
        try integer(name, in: 0...1).map { $0 == 1 }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingBlanks() -> SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
