/// Builds a STUN message: header, attributes with padding, then optionally MESSAGE-INTEGRITY
/// and FINGERPRINT over what precedes them (RFC 8489 §14.5, §14.7).
public struct STUNMessageBuilder: Sendable {
    /// The value FINGERPRINT's CRC-32 is XORed with.
    static let fingerprintMask: UInt32 = 0x5354_554E

    private var bytes: [UInt8]

    /// A message of `type` with `transactionID` (12 octets; other lengths are cut or zero-padded).
    public init(type: STUNMessageType, transactionID: [UInt8]) {
        let raw = type.rawValue
        let cookie = STUNMessage.magicCookie
        bytes = [UInt8(raw >> 8), UInt8(raw & 0xFF), 0, 0, UInt8(cookie >> 24), UInt8(cookie >> 16 & 0xFF), UInt8(cookie >> 8 & 0xFF), UInt8(cookie & 0xFF)]
        bytes += (transactionID + [UInt8](repeating: 0, count: 12)).prefix(12)
    }

    /// Appends an attribute of `type` with `value`, padded with zeros to a multiple of 4.
    public mutating func append(_ type: STUNAttributeType, value: some Collection<UInt8>) {
        bytes += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), UInt8(value.count >> 8 & 0xFF), UInt8(value.count & 0xFF)]
        bytes += value
        bytes += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
        setLength(bytes.count - STUNMessage.headerLength)
    }

    /// Appends XOR-MAPPED-ADDRESS for `address` (RFC 8489 §14.2).
    public mutating func appendXORMappedAddress(_ address: TransportAddress) {
        let mask = Array(bytes[4..<20])
        let port = address.port ^ UInt16(STUNMessage.magicCookie >> 16)
        var value: [UInt8] = [0, address.isIPv6 ? 2 : 1, UInt8(port >> 8), UInt8(port & 0xFF)]
        value += address.addressBytes.enumerated().map { $0.element ^ mask[$0.offset] }
        append(.xorMappedAddress, value: value)
    }

    /// Appends ERROR-CODE with `code` (such as 400 or 401) and `reason` (RFC 8489 §14.8).
    public mutating func appendErrorCode(_ code: Int, reason: String) {
        append(.errorCode, value: [0, 0, UInt8(code / 100 & 0x7), UInt8(code % 100)] + Array(reason.utf8))
    }

    /// The finished message: MESSAGE-INTEGRITY under `integrityKey` when given, then FINGERPRINT
    /// when `fingerprint` is true.
    public func finish(integrityKey: [UInt8]?, fingerprint: Bool) -> [UInt8] {
        var message = self
        if let integrityKey {
            message.setLength(message.bytes.count + 4 + STUNIntegrity.length - STUNMessage.headerLength)
            var tag = [UInt8](repeating: 0, count: STUNIntegrity.length)
            _ = message.bytes.withUnsafeBytes { data in
                tag.withUnsafeMutableBytes { STUNIntegrity.authenticate(data, key: integrityKey, into: $0) }
            }
            message.append(.messageIntegrity, value: tag)
        }
        if fingerprint {
            message.setLength(message.bytes.count + 8 - STUNMessage.headerLength)
            let crc = message.bytes.withUnsafeBytes(STUNCRC32.checksum) ^ Self.fingerprintMask
            message.append(.fingerprint, value: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        }
        return message.bytes
    }

    private mutating func setLength(_ length: Int) {
        bytes[2] = UInt8(length >> 8 & 0xFF)
        bytes[3] = UInt8(length & 0xFF)
    }
}
