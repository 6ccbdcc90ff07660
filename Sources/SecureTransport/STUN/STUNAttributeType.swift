/// The STUN attribute types ICE uses (RFC 8489 §18.3, RFC 8445 §16.1).
public struct STUNAttributeType: RawRepresentable, Hashable, Sendable {
    /// The 16-bit type code.
    public let rawValue: UInt16

    /// A type with code `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// MAPPED-ADDRESS.
    public static let mappedAddress = STUNAttributeType(rawValue: 0x0001)
    /// USERNAME: `remote-ufrag:local-ufrag` from the checker's point of view.
    public static let username = STUNAttributeType(rawValue: 0x0006)
    /// MESSAGE-INTEGRITY: HMAC-SHA1 over the message up to this attribute.
    public static let messageIntegrity = STUNAttributeType(rawValue: 0x0008)
    /// ERROR-CODE.
    public static let errorCode = STUNAttributeType(rawValue: 0x0009)
    /// XOR-MAPPED-ADDRESS: the request's source address, XORed with the magic cookie.
    public static let xorMappedAddress = STUNAttributeType(rawValue: 0x0020)
    /// PRIORITY (ICE).
    public static let priority = STUNAttributeType(rawValue: 0x0024)
    /// USE-CANDIDATE (ICE): the controlling agent nominates this pair.
    public static let useCandidate = STUNAttributeType(rawValue: 0x0025)
    /// SOFTWARE.
    public static let software = STUNAttributeType(rawValue: 0x8022)
    /// FINGERPRINT: CRC-32 of the message up to this attribute, XORed with 0x5354554E.
    public static let fingerprint = STUNAttributeType(rawValue: 0x8028)
    /// ICE-CONTROLLED.
    public static let iceControlled = STUNAttributeType(rawValue: 0x8029)
    /// ICE-CONTROLLING.
    public static let iceControlling = STUNAttributeType(rawValue: 0x802A)
}

/// A STUN message's method and class (RFC 8489 §5), as the 14-bit type field packs them.
public struct STUNMessageType: Hashable, Sendable {
    /// The class of a message.
    public enum Class: UInt16, Sendable {
        /// A request.
        case request = 0
        /// An indication.
        case indication = 1
        /// A success response.
        case successResponse = 2
        /// An error response.
        case errorResponse = 3
    }

    /// The method; 1 is Binding.
    public let method: UInt16
    /// The class.
    public let messageClass: Class

    /// The Binding method.
    public static let bindingMethod: UInt16 = 0x001

    /// A Binding request.
    public static let bindingRequest = STUNMessageType(method: bindingMethod, messageClass: .request)
    /// A Binding success response.
    public static let bindingSuccess = STUNMessageType(method: bindingMethod, messageClass: .successResponse)
    /// A Binding error response.
    public static let bindingError = STUNMessageType(method: bindingMethod, messageClass: .errorResponse)
    /// A Binding indication (keepalive).
    public static let bindingIndication = STUNMessageType(method: bindingMethod, messageClass: .indication)

    /// A type of `method` and `messageClass`.
    public init(method: UInt16, messageClass: Class) {
        self.method = method & 0x0FFF
        self.messageClass = messageClass
    }

    /// Unpacks the 14-bit type field: class bits C1 (bit 8) and C0 (bit 4) interleaved with
    /// the method's bits.
    public init(rawValue: UInt16) {
        let classBits = (rawValue >> 7) & 0x2 | (rawValue >> 4) & 0x1
        method = (rawValue & 0x000F) | (rawValue >> 1) & 0x0070 | (rawValue >> 2) & 0x0F80
        messageClass = Class(rawValue: classBits) ?? .request
    }

    /// The 14-bit type field.
    public var rawValue: UInt16 {
        let classBits = messageClass.rawValue
        return (method & 0x000F) | (method & 0x0070) << 1 | (method & 0x0F80) << 2 | (classBits & 0x1) << 4 | (classBits & 0x2) << 7
    }
}
