/// A parsed STUN message (RFC 8489 §5–6): header, transaction ID and the attributes in order,
/// over a copy of the message's octets.
///
/// Every length is checked before it is read; a message that does not parse throws
/// ``STUNError``. Authentication is separate: ``hasValidIntegrity(key:)`` and
/// ``hasValidFingerprint``.
public struct STUNMessage: Sendable {
    /// One attribute: its type and where its value lies in ``bytes``.
    public struct Attribute: Sendable, Equatable {
        /// The attribute's type.
        public let type: STUNAttributeType
        /// The offset of the attribute's 4-octet header in the message.
        public let offset: Int
        /// The value's octets (without padding) in the message.
        public let valueRange: Range<Int>
    }

    /// The magic cookie every RFC 5389/8489 message carries.
    public static let magicCookie: UInt32 = 0x2112_A442
    /// The header's length.
    public static let headerLength = 20

    /// The whole message.
    public let bytes: [UInt8]
    /// The method and class.
    public let type: STUNMessageType
    /// The 96-bit transaction ID.
    public let transactionID: [UInt8]
    /// The attributes in the order they appear.
    public let attributes: [Attribute]

    /// Parses `datagram` as one STUN message.
    /// - Throws: ``STUNError`` when the header, the length or an attribute is malformed.
    public init(parsing datagram: UnsafeRawBufferPointer) throws(STUNError) {
        guard datagram.count >= Self.headerLength else { throw .truncated(offset: 0) }
        guard datagram[0] & 0xC0 == 0 else { throw .notSTUN }
        let cookie = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(datagram[4 + $1]) }
        guard cookie == Self.magicCookie else { throw .badMagicCookie }
        let declared = Int(datagram[2]) << 8 | Int(datagram[3])
        guard declared == datagram.count - Self.headerLength, declared % 4 == 0 else {
            throw .lengthMismatch(declared: declared, actual: datagram.count - Self.headerLength)
        }
        var attributes: [Attribute] = []
        var offset = Self.headerLength
        while offset < datagram.count {
            guard datagram.count - offset >= 4 else { throw .truncated(offset: offset) }
            let type = STUNAttributeType(rawValue: UInt16(datagram[offset]) << 8 | UInt16(datagram[offset + 1]))
            let length = Int(datagram[offset + 2]) << 8 | Int(datagram[offset + 3])
            let valueStart = offset + 4
            let padded = (length + 3) & ~3
            guard padded <= datagram.count - valueStart else { throw .truncated(offset: offset) }
            attributes.append(Attribute(type: type, offset: offset, valueRange: valueStart..<(valueStart + length)))
            offset = valueStart + padded
        }
        bytes = Array(datagram)
        type = STUNMessageType(rawValue: UInt16(datagram[0]) << 8 | UInt16(datagram[1]))
        transactionID = Array(datagram[8..<20])
        self.attributes = attributes
    }

    /// The first attribute of `type` that counts: attributes after MESSAGE-INTEGRITY other than
    /// FINGERPRINT, and anything after FINGERPRINT, are ignored (RFC 8489 §14.5, §14.7).
    public func attribute(_ type: STUNAttributeType) -> Attribute? {
        for attribute in attributes {
            if attribute.type == type { return attribute }
            if attribute.type == .fingerprint { return nil }
            if attribute.type == .messageIntegrity, type != .fingerprint { return nil }
        }
        return nil
    }

    /// The value of the first counting attribute of `type`.
    public func value(of type: STUNAttributeType) -> ArraySlice<UInt8>? {
        attribute(type).map { bytes[$0.valueRange] }
    }

    /// USERNAME as text, if present and valid UTF-8.
    public var username: String? {
        value(of: .username).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Whether USE-CANDIDATE is present.
    public var hasUseCandidate: Bool { attribute(.useCandidate) != nil }

    /// PRIORITY, if present and 4 octets long.
    public var priority: UInt32? {
        guard let value = value(of: .priority), value.count == 4 else { return nil }
        return value.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// XOR-MAPPED-ADDRESS decoded (RFC 8489 §14.2).
    /// - Throws: ``STUNError/malformedAddress(offset:)`` for an unknown family or a wrong length.
    public func xorMappedAddress() throws(STUNError) -> TransportAddress? {
        guard let attribute = attribute(.xorMappedAddress) else { return nil }
        let value = bytes[attribute.valueRange]
        let start = value.startIndex
        guard value.count >= 4 else { throw .malformedAddress(offset: attribute.offset) }
        let family = value[start + 1]
        let addressLength = family == 1 ? 4 : family == 2 ? 16 : 0
        guard addressLength > 0, value.count == 4 + addressLength else { throw .malformedAddress(offset: attribute.offset) }
        let port = (UInt16(value[start + 2]) << 8 | UInt16(value[start + 3])) ^ UInt16(Self.magicCookie >> 16)
        let mask = Array(bytes[4..<8]) + transactionID
        let address = (0..<addressLength).map { value[start + 4 + $0] ^ mask[$0] }
        return TransportAddress(addressBytes: address, port: port)
    }

    /// Whether MESSAGE-INTEGRITY is present and is the HMAC-SHA1 under `key` of the message
    /// before it, with the header's length ending at the attribute (RFC 8489 §14.5). For ICE's
    /// short-term credentials the key is the password's UTF-8 octets.
    public func hasValidIntegrity(key: [UInt8]) -> Bool {
        guard let attribute = attributes.first(where: { $0.type == .messageIntegrity }),
            attribute.valueRange.count == STUNIntegrity.length
        else { return false }
        var covered = Array(bytes[..<attribute.offset])
        let length = attribute.offset + 4 + STUNIntegrity.length - Self.headerLength
        covered[2] = UInt8(length >> 8)
        covered[3] = UInt8(length & 0xFF)
        var expected = [UInt8](repeating: 0, count: STUNIntegrity.length)
        let computed = covered.withUnsafeBytes { data in
            expected.withUnsafeMutableBytes { STUNIntegrity.authenticate(data, key: key, into: $0) }
        }
        guard computed else { return false }
        var difference: UInt8 = 0
        for (mine, theirs) in zip(expected, bytes[attribute.valueRange]) { difference |= mine ^ theirs }
        return difference == 0
    }

    /// Whether FINGERPRINT is present and holds the CRC-32 of the message before it, XORed with
    /// 0x5354554E (RFC 8489 §14.7).
    public var hasValidFingerprint: Bool {
        guard let attribute = attributes.first(where: { $0.type == .fingerprint }), attribute.valueRange.count == 4 else { return false }
        var covered = Array(bytes[..<attribute.offset])
        let length = attribute.offset + 8 - Self.headerLength
        covered[2] = UInt8(length >> 8)
        covered[3] = UInt8(length & 0xFF)
        let expected = covered.withUnsafeBytes(STUNCRC32.checksum) ^ STUNMessageBuilder.fingerprintMask
        let received = bytes[attribute.valueRange].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return expected == received
    }
}
