/// How an SRTP session is set up beyond its key: the replay window, the MKI, the SRTCP tag
/// length and how many SSRCs it keeps state for.
public struct SRTPSessionOptions: Hashable, Sendable {
    /// The replay window libsrtp uses unless told otherwise: 128 packets.
    public static let defaultReplayWindowSize = 128
    /// The number of SSRCs a session keeps state for unless told otherwise.
    public static let defaultMaximumStreamCount = 16
    /// The longest MKI there is (RFC 4568 §6.1: 1 to 128 octets).
    public static let maximumMasterKeyIdentifierLength = 128

    /// How many packets back a late SRTP packet is still accepted, 64 to 32 768; rounded up
    /// to a multiple of 32, as libsrtp does. SRTCP keeps libsrtp's fixed window of 128 indices.
    /// On an outbound session the window refuses a sequence number protected twice.
    public var replayWindowSize = defaultReplayWindowSize
    /// The master key identifier (RFC 3711 §3.1) every packet carries after its payload, as
    /// SDES `|MKI:value:length` announces it; empty (the default) for none. Outbound sessions
    /// write it, inbound sessions refuse packets that carry another one
    /// (``SRTPError/unknownMasterKeyIdentifier(_:)``).
    public var masterKeyIdentifier: [UInt8] = []
    /// The length of the HMAC-SHA1 tag on SRTCP packets (the AEAD suites always use 16 octets).
    public var rtcpTagLength = SRTCPTagLength.rfc3711
    /// Inbound only: when an SRTCP packet does not verify with ``rtcpTagLength``, try the other
    /// length before refusing it, so that a peer is understood whichever choice it made for the
    /// *_HMAC_SHA1_32 suites (libsrtp sends 80 bits, Linphone 32). Costs a second HMAC on
    /// refused packets only.
    public var acceptsEitherRTCPTagLength = false
    /// How many SSRCs the session keeps state for; their storage is allocated when the session
    /// is created. A new SSRC beyond this replaces the least recently used one.
    public var maximumStreamCount = defaultMaximumStreamCount

    /// The defaults: a 128-packet window, no MKI, RFC 3711's SRTCP tag, 16 SSRCs.
    public init() {}

    /// Checks every setting, naming the first one out of range.
    func validate() throws(SRTPError) {
        guard (64...0x8000).contains(replayWindowSize) else { throw .invalidReplayWindowSize(replayWindowSize) }
        guard masterKeyIdentifier.count <= Self.maximumMasterKeyIdentifierLength else {
            throw .invalidMasterKeyIdentifierLength(masterKeyIdentifier.count)
        }
        guard maximumStreamCount >= 1 else { throw .invalidMaximumStreamCount(maximumStreamCount) }
    }
}

/// The length of the HMAC-SHA1 authentication tag on SRTCP packets.
///
/// RFC 3711 §5.2 and libsrtp protect SRTCP with an 80-bit tag for every HMAC-SHA1 suite, the
/// *_HMAC_SHA1_32 ones included (RFC 4568 §6.2.2, RFC 5764 §4.1.2); Linphone uses the SRTP tag's
/// 32 bits for SRTCP too. The AEAD suites are not affected.
public enum SRTCPTagLength: Hashable, Sendable {
    /// 80 bits for every HMAC-SHA1 suite (RFC 3711, libsrtp, the default).
    case rfc3711
    /// The SRTP tag's length: 32 bits for the *_HMAC_SHA1_32 suites (Linphone).
    case sameAsRTP

    /// The other choice, which ``SRTPSessionOptions/acceptsEitherRTCPTagLength`` tries second.
    var other: SRTCPTagLength {
        self == .rfc3711 ? .sameAsRTP : .rfc3711
    }

    /// The tag length in octets for `suite`.
    func octets(for suite: SRTPCryptoSuite) -> Int {
        self == .sameAsRTP ? suite.rtpTagLength : suite.rtcpTagLength
    }
}
