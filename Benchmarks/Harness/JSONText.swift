/// Writes JSON text by hand, so keys keep the order a row gives them.
enum JSONText {
    /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON object with its members in the given order.
    static func object(_ members: [(key: String, value: String)]) -> String {
        "{" + members.map { quoted($0.key) + ": " + $0.value }.joined(separator: ", ") + "}"
    }
}
