/// An IPv4 address as a value.
public struct IPv4Address: Hashable, Comparable, Sendable, LosslessStringConvertible {
    /// The address as a number in host order: `10.0.0.1` is `0x0A00_0001`.
    public var rawValue: UInt32

    /// An address from its numeric value (`10.0.0.1` is `0x0A00_0001`).
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// An address from its four dotted-quad parts, `IPv4Address(10, 0, 0, 1)`.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        rawValue = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    /// Parses dotted-quad text such as `192.0.2.1`; `nil` unless it has exactly four decimal parts
    /// of at most 255 without leading zeros (the forms `inet_pton` accepts).
    public init?(_ description: String) {
        self.init(text: Substring(description))
    }

    /// Parses dotted-quad text from a substring (see ``init(_:)``).
    public init?(text: Substring) {
        var value: UInt32 = 0
        var parts = 0
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard parts < 4, let octet = Self.octet(part) else { return nil }
            value = value << 8 | UInt32(octet)
            parts += 1
        }
        guard parts == 4 else { return nil }
        rawValue = value
    }

    /// The dotted-quad form, `192.0.2.1`.
    public var description: String {
        "\(rawValue >> 24).\(rawValue >> 16 & 0xFF).\(rawValue >> 8 & 0xFF).\(rawValue & 0xFF)"
    }

    /// Orders addresses numerically.
    public static func < (lhs: IPv4Address, rhs: IPv4Address) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static func octet(_ digits: Substring) -> UInt8? {
        guard (1...3).contains(digits.utf8.count), digits.utf8.count == 1 || digits.utf8.first != UInt8(ascii: "0") else {
            return nil
        }
        var value = 0
        for digit in digits.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return UInt8(exactly: value)
    }
}
