/// A packet or payload that could not be parsed or built: what was wrong and at which byte.
///
/// Every parser and builder in this module throws this one type, so a receive loop can count
/// and drop a malformed packet with a single `catch`. ``description`` names the problem and the
/// byte offset (from the start of the buffer handed to the parser or builder).
public struct RTPError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Equatable, Hashable, Sendable {
        /// The bytes end before a field or a declared length: `needed` bytes from the offset,
        /// `available` left.
        case truncated(needed: Int, available: Int)
        /// The version field is not 2.
        case unsupportedVersion(UInt8)
        /// The padding count (the last octet) is zero or larger than the room it could take.
        case invalidPadding(count: Int, available: Int)
        /// A length field is inconsistent with the structure it describes.
        case invalidLength(Int)
        /// An RTCP packet that may not carry padding does (only the last packet of a compound may).
        case paddingBeforeLastPacket
        /// A field holds a value outside its legal range.
        case valueOutOfRange(field: Field, value: Int)
        /// The caller's buffer is too small: `needed` bytes in total, `available` in the buffer.
        case bufferTooSmall(needed: Int, available: Int)
        /// An RTCP compound packet must begin with a sender or receiver report (RFC 3550 §6.1).
        case compoundMustStartWithReport
        /// An RTCP compound packet must carry an SDES packet with a CNAME item (RFC 3550 §6.1).
        case compoundWithoutCNAME
        /// A builder method was called out of order (for example an extension after the payload).
        case builderOutOfOrder
    }

    /// A field named by ``Reason/valueOutOfRange(field:value:)``.
    public enum Field: String, Equatable, Hashable, Sendable {
        /// RTP payload type (7 bits).
        case payloadType = "payload type"
        /// Number of CSRCs (at most 15).
        case csrcCount = "CSRC count"
        /// RTP padding length (1–255).
        case paddingLength = "padding length"
        /// Header-extension element ID.
        case extensionID = "extension element ID"
        /// Header-extension element length.
        case extensionLength = "extension element length"
        /// An RTCP item count (at most 31).
        case itemCount = "item count"
        /// An SDES item type or text length.
        case sdesItem = "SDES item"
        /// An RTCP packet's length.
        case rtcpLength = "RTCP length"
        /// An APP packet's subtype (5 bits) or data length (a multiple of 4).
        case applicationData = "APP subtype or data"
        /// A DTMF event's volume (6 bits).
        case dtmfVolume = "DTMF volume"
        /// A comfort-noise level (7 bits).
        case noiseLevel = "noise level"
        /// A BYE reason's length (at most 255 bytes).
        case byeReason = "BYE reason"
    }

    /// What was wrong.
    public let reason: Reason
    /// The byte offset, from the start of the buffer given to the parser or builder, where the
    /// problem was found.
    public let offset: Int

    /// Creates an error for `reason` found at byte `offset`.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// A one-line account: the problem and its byte offset.
    public var description: String {
        let what: String
        switch reason {
        case .truncated(let needed, let available):
            what = "truncated: needs \(needed) bytes, only \(available) left"
        case .unsupportedVersion(let version):
            what = "unsupported version \(version) (expected 2)"
        case .invalidPadding(let count, let available):
            what = "invalid padding count \(count) (at most \(available) bytes could be padding)"
        case .invalidLength(let length):
            what = "inconsistent length \(length)"
        case .paddingBeforeLastPacket:
            what = "padding bit set on an RTCP packet that is not the last of its compound"
        case .valueOutOfRange(let field, let value):
            what = "\(field.rawValue) \(value) is out of range"
        case .bufferTooSmall(let needed, let available):
            what = "buffer too small: needs \(needed) bytes, has \(available)"
        case .compoundMustStartWithReport:
            what = "an RTCP compound packet must start with SR or RR"
        case .compoundWithoutCNAME:
            what = "an RTCP compound packet must carry SDES with a CNAME"
        case .builderOutOfOrder:
            what = "builder step out of order"
        }
        return "\(what) at byte \(offset)"
    }
}
