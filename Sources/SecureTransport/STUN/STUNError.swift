/// Why bytes are not a well-formed STUN message (RFC 8489 §5, §14), with the byte offset.
public enum STUNError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 20-octet header, or an attribute running past the message.
    case truncated(offset: Int)
    /// The two most significant bits are not zero.
    case notSTUN
    /// The magic cookie is not 0x2112A442.
    case badMagicCookie
    /// The header's length is not the datagram's length minus 20, or not a multiple of 4.
    case lengthMismatch(declared: Int, actual: Int)
    /// An address attribute with an unknown family or the wrong length.
    case malformedAddress(offset: Int)

    /// What was wrong and where.
    public var description: String {
        switch self {
        case let .truncated(offset): "STUN message truncated at byte \(offset)"
        case .notSTUN: "not a STUN message (top bits set)"
        case .badMagicCookie: "STUN magic cookie missing"
        case let .lengthMismatch(declared, actual): "STUN length \(declared) does not match the \(actual) octets after the header"
        case let .malformedAddress(offset): "malformed STUN address attribute at byte \(offset)"
        }
    }
}
