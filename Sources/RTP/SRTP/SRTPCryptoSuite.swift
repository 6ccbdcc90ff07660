/// An SRTP protection profile: the cipher, the authentication and the sizes of the master key,
/// the master salt and the tags.
///
/// The names in ``sdesName`` are the crypto-suite names of SDES `a=crypto` lines
/// (RFC 4568 §6.2, RFC 6188 §7.1, RFC 7714 §14.2).
public enum SRTPCryptoSuite: CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// AES-128 in counter mode with an 80-bit HMAC-SHA1 tag (RFC 3711, the default profile).
    case aes128CounterModeHMACSHA1Tag80
    /// AES-128 in counter mode with a 32-bit HMAC-SHA1 tag on SRTP; SRTCP keeps the 80-bit tag
    /// (RFC 4568 §6.2.2, RFC 5764 §4.1.2).
    case aes128CounterModeHMACSHA1Tag32
    /// AES-256 in counter mode with an 80-bit HMAC-SHA1 tag (RFC 6188).
    case aes256CounterModeHMACSHA1Tag80
    /// AES-256 in counter mode with a 32-bit HMAC-SHA1 tag on SRTP; SRTCP keeps the 80-bit tag
    /// (RFC 6188).
    case aes256CounterModeHMACSHA1Tag32
    /// AES-128 in Galois/counter mode with a 16-octet tag (RFC 7714).
    case aeadAES128GCM
    /// AES-256 in Galois/counter mode with a 16-octet tag (RFC 7714).
    case aeadAES256GCM

    /// The crypto-suite name used in SDES `a=crypto` attributes, such as `AES_CM_128_HMAC_SHA1_80`.
    public var sdesName: String {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80: "AES_CM_128_HMAC_SHA1_80"
        case .aes128CounterModeHMACSHA1Tag32: "AES_CM_128_HMAC_SHA1_32"
        case .aes256CounterModeHMACSHA1Tag80: "AES_256_CM_HMAC_SHA1_80"
        case .aes256CounterModeHMACSHA1Tag32: "AES_256_CM_HMAC_SHA1_32"
        case .aeadAES128GCM: "AEAD_AES_128_GCM"
        case .aeadAES256GCM: "AEAD_AES_256_GCM"
        }
    }

    /// The suite whose SDES crypto-suite name is `name` (case-sensitive, as RFC 4568 registers
    /// them), or `nil` for a suite this library does not support.
    public init?(sdesName name: some StringProtocol) {
        guard let suite = Self.allCases.first(where: { $0.sdesName == name }) else { return nil }
        self = suite
    }

    /// The length of the master key in octets: 16 for the AES-128 suites, 32 for the AES-256 ones.
    public var masterKeyLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32, .aeadAES128GCM: 16
        case .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32, .aeadAES256GCM: 32
        }
    }

    /// The length of the master salt in octets: 14 for the counter-mode suites, 12 for AES-GCM
    /// (RFC 7714 §12).
    public var masterSaltLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32,
            .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32:
            14
        case .aeadAES128GCM, .aeadAES256GCM: 12
        }
    }

    /// The length of the master key followed by the master salt, as carried by SDES `inline:`.
    public var keyMaterialLength: Int { masterKeyLength + masterSaltLength }

    /// The length of the authentication tag appended to each SRTP packet.
    public var rtpTagLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag80: 10
        case .aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag32: 4
        case .aeadAES128GCM, .aeadAES256GCM: 16
        }
    }

    /// The length of the authentication tag appended to each SRTCP packet, as RFC 3711 and
    /// libsrtp have it (80 bits for every HMAC-SHA1 suite; see ``SRTCPTagLength`` for peers that
    /// use 32).
    public var rtcpTagLength: Int {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80, .aes128CounterModeHMACSHA1Tag32,
            .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32:
            10
        case .aeadAES128GCM, .aeadAES256GCM: 16
        }
    }

    /// The octets that protecting an RTP packet adds: the tag.
    public var rtpOverhead: Int { rtpTagLength }

    /// The octets that protecting an RTCP packet adds: the tag and the 4-octet E flag and
    /// SRTCP index (RFC 3711 §3.4).
    public var rtcpOverhead: Int { rtcpTagLength + 4 }

    /// The SDES crypto-suite name.
    public var description: String { sdesName }
}
