/// Reads the Call-ID header (`Call-ID:` or its compact form `i:`, RFC 3261 §20.8) of a SIP
/// message in place, so that the streams its SDP announced can be tied to their call.
enum SIPCallIdentifier {
    /// The longest Call-ID kept; a longer one is cut.
    static let maximumLength = 256

    /// The Call-ID of the SIP message in `payload`, `nil` when its headers have none.
    static func callID(inSIPMessage payload: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        while offset < payload.count {
            let newline = payload[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? payload.count
            var end = newline
            if end > offset, payload[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end == offset { return nil }
            if let value = value(of: payload[offset..<end]) { return value }
            offset = newline + 1
        }
        return nil
    }

    private static func value(of line: Slice<UnsafeRawBufferPointer>) -> String? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            .trimmingCharacters(in: " \t").lowercased()
        guard name == "call-id" || name == "i" else { return nil }
        let value = String(decoding: line[(colon + 1)...].prefix(maximumLength), as: UTF8.self)
            .trimmingCharacters(in: " \t")
        return value.isEmpty ? nil : value
    }
}

extension String {
    /// The string without leading and trailing characters of `set` (no Foundation).
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }),
            let last = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
