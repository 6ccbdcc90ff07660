/// An IPv6 address as a value: 128 bits held as two 64-bit halves in network order.
public struct IPv6Address: Hashable, Comparable, Sendable, LosslessStringConvertible {
    /// The first 64 bits (the routing prefix and subnet for most addresses).
    public var high: UInt64
    /// The last 64 bits (the interface identifier for most addresses).
    public var low: UInt64

    /// An address from its two halves: `2001:db8::1` is `high: 0x2001_0db8_0000_0000, low: 1`.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An address from its eight 16-bit groups; `nil` unless there are exactly eight.
    public init?(groups: [UInt16]) {
        guard groups.count == 8 else { return nil }
        high = groups[0..<4].reduce(0) { $0 << 16 | UInt64($1) }
        low = groups[4..<8].reduce(0) { $0 << 16 | UInt64($1) }
    }

    /// Parses RFC 4291 text: eight hexadecimal groups, one `::` standing for a run of zero groups,
    /// and an optional dotted-quad IPv4 tail (`::ffff:192.0.2.1`). Zone suffixes (`%eth0`) are rejected.
    public init?(_ description: String) {
        let text = Substring(description)
        guard let split = text.firstRange(of: "::") else {
            guard let groups = Self.groups(text, ipv4TailAllowed: true), groups.count == 8 else { return nil }
            self.init(groups: groups)
            return
        }
        let head = text[..<split.lowerBound]
        let tail = text[split.upperBound...]
        guard !tail.contains("::"),
            let headGroups = Self.groups(head, ipv4TailAllowed: false),
            let tailGroups = Self.groups(tail, ipv4TailAllowed: true),
            headGroups.count + tailGroups.count <= 7
        else { return nil }
        let zeros = [UInt16](repeating: 0, count: 8 - headGroups.count - tailGroups.count)
        self.init(groups: headGroups + zeros + tailGroups)
    }

    /// The eight 16-bit groups, first to last.
    public var groups: [UInt16] {
        (0..<8).map { index in
            let half = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: half >> (48 - 16 * UInt64(index % 4)))
        }
    }

    /// The IPv4 address embedded in an IPv4-mapped address (`::ffff:a.b.c.d`), else `nil`.
    public var mappedIPv4: IPv4Address? {
        guard high == 0, low >> 32 == 0xFFFF else { return nil }
        return IPv4Address(rawValue: UInt32(truncatingIfNeeded: low))
    }

    /// The RFC 5952 canonical text: lower-case hexadecimal without leading zeros, the longest run
    /// of two or more zero groups (the first of equals) written `::`, and IPv4-mapped addresses
    /// in mixed notation (`::ffff:192.0.2.1`).
    public var description: String {
        if let mapped = mappedIPv4 {
            return "::ffff:\(mapped)"
        }
        let groups = groups
        let zeroRun = Self.longestZeroRun(groups)
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard let zeroRun else { return hex(0..<8) }
        return hex(0..<zeroRun.lowerBound) + "::" + hex(zeroRun.upperBound..<8)
    }

    /// Orders addresses numerically.
    public static func < (lhs: IPv6Address, rhs: IPv6Address) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// The first longest run of at least two zero groups.
    private static func longestZeroRun(_ groups: [UInt16]) -> Range<Int>? {
        var best: Range<Int>?
        var index = 0
        while index < groups.count {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < groups.count, groups[index] == 0 { index += 1 }
            if index - start >= 2, index - start > best?.count ?? 0 {
                best = start..<index
            }
        }
        return best
    }

    /// The groups of one side of a `::` (or of a whole address); the last may be a dotted quad.
    private static func groups(_ text: Substring, ipv4TailAllowed: Bool) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var groups: [UInt16] = []
        for (index, part) in parts.enumerated() {
            if ipv4TailAllowed, index == parts.count - 1, part.contains(".") {
                guard let ipv4 = IPv4Address(text: part) else { return nil }
                groups += [UInt16(ipv4.rawValue >> 16), UInt16(truncatingIfNeeded: ipv4.rawValue)]
            } else {
                // Digits only: `UInt16(_:radix:)` alone would also take a sign ("+1").
                guard (1...4).contains(part.utf8.count), part.allSatisfy(\.isHexDigit),
                    let group = UInt16(part, radix: 16)
                else { return nil }
                groups.append(group)
            }
        }
        return groups.count <= 8 ? groups : nil
    }
}
