/// One `inline:` key parameter of an SDES `a=crypto` attribute: the master key and salt, and
/// optionally its lifetime and master key identifier (RFC 4568 §6.1).
public struct SDESKeyParameter: Sendable, Equatable {
    /// The master key and salt.
    public let masterKey: SRTPMasterKey
    /// How many packets the key may protect, when the offer limits it.
    public let lifetime: SDESKeyLifetime?
    /// The MKI that packets protected with this key carry, when the offer uses one.
    public let masterKeyIdentifier: SDESMasterKeyIdentifier?

    /// Gathers a key with its optional lifetime and MKI.
    public init(
        masterKey: SRTPMasterKey, lifetime: SDESKeyLifetime? = nil,
        masterKeyIdentifier: SDESMasterKeyIdentifier? = nil
    ) {
        self.masterKey = masterKey
        self.lifetime = lifetime
        self.masterKeyIdentifier = masterKeyIdentifier
    }
}

/// The lifetime of an SDES master key in packets, written either as a decimal count or as a
/// power of two (`2^20`); the form is kept so that a parsed line is written back unchanged.
public enum SDESKeyLifetime: Hashable, Sendable, CustomStringConvertible {
    /// A decimal packet count, 1 to 2^48.
    case packets(UInt64)
    /// 2 to the power of an exponent, 0 to 48.
    case powerOfTwo(exponent: Int)

    /// The largest lifetime SRTP allows: 2^48 packets (RFC 3711 §9.2, RFC 4568 §6.1).
    public static let maximumPacketCount: UInt64 = 1 << 48

    /// Reads `2^N` or a decimal count, or returns `nil` when the text is neither or is out of
    /// range.
    public init?(sdesText text: some StringProtocol) {
        if text.hasPrefix("2^") {
            guard let exponent = parseDecimal(text.utf8.dropFirst(2), maximumDigits: 2), exponent <= 48 else { return nil }
            self = .powerOfTwo(exponent: Int(exponent))
        } else {
            guard let count = parseDecimal(text.utf8, maximumDigits: 15), count >= 1, count <= Self.maximumPacketCount
            else { return nil }
            self = .packets(count)
        }
    }

    /// The number of packets.
    public var packetCount: UInt64 {
        switch self {
        case .packets(let count): count
        case .powerOfTwo(let exponent): 1 << UInt64(exponent)
        }
    }

    /// The text as SDES writes it: `2^20` or `1048576`.
    public var description: String {
        switch self {
        case .packets(let count): "\(count)"
        case .powerOfTwo(let exponent): "2^\(exponent)"
        }
    }
}

/// A master key identifier as SDES offers it: its value and the number of octets it takes in
/// each packet (`MKI:length`, RFC 4568 §6.1).
public struct SDESMasterKeyIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's value.
    public let value: UInt64
    /// Its length on the wire, 1 to 128 octets.
    public let length: Int

    /// Pairs a value with its length, or returns `nil` when the length is not 1 to 128 or the
    /// value does not fit in `length` octets.
    public init?(value: UInt64, length: Int) {
        guard (1...128).contains(length), length >= 8 || value >> UInt64(8 * length) == 0 else { return nil }
        self.value = value
        self.length = length
    }

    /// Reads `value:length`, or returns `nil` when malformed.
    public init?(sdesText text: some StringProtocol) {
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2, let value = parseDecimal(parts[0], maximumDigits: 20),
            let length = parseDecimal(parts[1], maximumDigits: 3)
        else { return nil }
        self.init(value: value, length: Int(length))
    }

    /// The text as SDES writes it: `value:length`.
    public var description: String { "\(value):\(length)" }

    /// The identifier as packets carry it: the value in network order, `length` octets.
    public var octets: [UInt8] {
        (0..<length).map { index in
            let shift = 8 * (length - 1 - index)
            return shift >= 64 ? 0 : UInt8(truncatingIfNeeded: value >> UInt64(shift))
        }
    }
}

/// The value of 1 to `maximumDigits` ASCII decimal digits, or `nil` for anything else or an
/// overflow.
func parseDecimal(_ digits: some Collection<UInt8>, maximumDigits: Int) -> UInt64? {
    guard !digits.isEmpty, digits.count <= maximumDigits else { return nil }
    var value: UInt64 = 0
    for digit in digits {
        guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
        let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowB) = shifted.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
        guard !overflowA, !overflowB else { return nil }
        value = sum
    }
    return value
}
