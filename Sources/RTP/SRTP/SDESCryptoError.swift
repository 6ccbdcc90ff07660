/// What is wrong with an SDES `a=crypto` attribute (RFC 4568 §9.1), and where.
///
/// No case carries key material: a malformed key is located by its position, never quoted.
public enum SDESCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line does not start with `a=crypto:` (or `crypto:`).
    case notACryptoAttribute
    /// The tag is not 1 to 9 decimal digits right after `crypto:`.
    case invalidTag(String)
    /// The line ends before the crypto-suite or before the key parameters.
    case missingField(String)
    /// The crypto-suite is not one this library supports; an answerer skips such an offer.
    case unknownSuite(String)
    /// A key parameter (numbered from 1) does not start with the `inline:` key method. What
    /// stands there instead is not quoted: without its method, it may be the key itself.
    case unsupportedKeyMethod(keyIndex: Int)
    /// A key parameter's `key||salt` is not valid base64; `offset` counts characters from the
    /// start of the base64 text.
    case invalidBase64(keyIndex: Int, offset: Int)
    /// A key parameter's `key||salt` decodes to the wrong number of octets for the suite.
    case wrongKeyLength(keyIndex: Int, suite: SRTPCryptoSuite, expected: Int, actual: Int)
    /// A key parameter's lifetime is not a positive decimal number or `2^` and an exponent, or
    /// exceeds 2^48 packets (RFC 4568 §6.1).
    case invalidLifetime(keyIndex: Int, text: String)
    /// A key parameter's MKI is not `value:length` with a length of 1 to 128 octets and a value
    /// that fits in it.
    case invalidMasterKeyIdentifier(keyIndex: Int, text: String)
    /// A key parameter has more than the key, a lifetime and an MKI separated by `|`.
    case tooManyKeyFields(keyIndex: Int)
    /// Several keys are given but not each with an MKI of one common length (RFC 4568 §6.1).
    case inconsistentMasterKeyIdentifiers
    /// Keys of different suites were put in one attribute.
    case mixedSuites
    /// A session parameter is empty or not visible ASCII (RFC 4568 §9.1: `1*(VCHAR)`).
    case invalidSessionParameter(String)

    /// What is wrong, naming the field.
    public var description: String {
        switch self {
        case .notACryptoAttribute:
            "not an a=crypto attribute"
        case .invalidTag(let text):
            "a=crypto tag '\(text)' is not 1 to 9 digits"
        case .missingField(let field):
            "a=crypto line ends before its \(field)"
        case .unknownSuite(let name):
            "a=crypto crypto-suite '\(name)' is not supported"
        case .unsupportedKeyMethod(let keyIndex):
            "a=crypto key \(keyIndex): key method is not inline"
        case .invalidBase64(let keyIndex, let offset):
            "a=crypto key \(keyIndex): invalid base64 at character \(offset)"
        case .wrongKeyLength(let keyIndex, let suite, let expected, let actual):
            "a=crypto key \(keyIndex): \(actual) octets of key and salt, \(suite.sdesName) needs \(expected)"
        case .invalidLifetime(let keyIndex, let text):
            "a=crypto key \(keyIndex): invalid lifetime '\(text)'"
        case .invalidMasterKeyIdentifier(let keyIndex, let text):
            "a=crypto key \(keyIndex): invalid MKI '\(text)'"
        case .tooManyKeyFields(let keyIndex):
            "a=crypto key \(keyIndex): more than key, lifetime and MKI"
        case .inconsistentMasterKeyIdentifiers:
            "a=crypto with several keys needs an MKI of one length on each"
        case .mixedSuites:
            "a=crypto keys of different crypto-suites"
        case .invalidSessionParameter(let text):
            "a=crypto session parameter '\(text)' is empty or not visible ASCII (RFC 4568: 1*VCHAR)"
        }
    }
}
