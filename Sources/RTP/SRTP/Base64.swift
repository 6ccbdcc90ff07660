/// The base64 alphabet of RFC 4648 §4, as SDES `inline:` key parameters use it; no Foundation.
enum Base64 {
    /// Where a base64 text is malformed.
    enum DecodingError: Error, Equatable {
        /// A character outside the alphabet, or padding in the middle, at this offset.
        case invalidCharacter(offset: Int)
        /// A length that cannot be base64 (a lone character in the last quantum), or bits left
        /// over in the last character.
        case invalidLength(Int)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The text for `bytes`, padded with `=` to a multiple of four characters.
    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        var text = [UInt8]()
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let group =
                UInt32(bytes[index]) << 16
                | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
            for position in 0..<4 {
                let sextet = Int(group >> (18 - 6 * UInt32(position))) & 0x3F
                text.append(position <= remaining ? alphabet[sextet] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The octets of `text`, which may end with the `=` padding or leave it out. Bits left over
    /// after the last octet must be zero, so each octet string has exactly one accepted text.
    static func decode(_ text: some Collection<UInt8>) throws(DecodingError) -> [UInt8] {
        let padding = text.reversed().prefix(while: { $0 == UInt8(ascii: "=") }).count
        let characterCount = text.count - padding
        guard padding <= 2, padding == 0 || text.count % 4 == 0, characterCount % 4 != 1 else {
            throw .invalidLength(text.count)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(characterCount * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for (offset, character) in text.prefix(characterCount).enumerated() {
            guard let sextet = value(of: character) else { throw .invalidCharacter(offset: offset) }
            accumulator = (accumulator << 6 | UInt32(sextet)) & 0xFFFF
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
            }
        }
        guard accumulator & ((1 << UInt32(bitCount)) - 1) == 0 else {
            throw .invalidLength(text.count)
        }
        return bytes
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
