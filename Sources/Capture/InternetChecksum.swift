/// The Internet checksum (RFC 1071): the ones' complement of the ones' complement sum of 16-bit words.
struct InternetChecksum {
    private var sum: UInt32 = 0

    /// Adds one 16-bit word.
    mutating func add(_ word: UInt16) {
        sum &+= UInt32(word)
        sum = (sum & 0xFFFF) &+ (sum >> 16)
    }

    /// Adds a 32- or 64-bit value as its 16-bit words, most significant first.
    mutating func add<Value: FixedWidthInteger & UnsignedInteger>(words value: Value) {
        for shift in stride(from: Value.bitWidth - 16, through: 0, by: -16) {
            add(UInt16(truncatingIfNeeded: value >> shift))
        }
    }

    /// Adds an address as it appears in a UDP pseudo-header.
    mutating func add(_ address: IPAddress) {
        switch address {
        case .v4(let ipv4):
            add(words: ipv4.rawValue)
        case .v6(let ipv6):
            add(words: ipv6.high)
            add(words: ipv6.low)
        }
    }

    /// Adds bytes as big-endian 16-bit words, padding an odd last byte with zero.
    mutating func add(_ bytes: some Collection<UInt8>) {
        var high: UInt8?
        for byte in bytes {
            if let first = high {
                add(UInt16(first) << 8 | UInt16(byte))
                high = nil
            } else {
                high = byte
            }
        }
        if let last = high {
            add(UInt16(last) << 8)
        }
    }

    /// The checksum of everything added.
    var value: UInt16 {
        ~UInt16(truncatingIfNeeded: sum)
    }
}
