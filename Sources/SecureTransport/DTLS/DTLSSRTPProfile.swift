import RTP

extension SRTPCryptoSuite {
    /// The suites DTLS-SRTP negotiates here, most preferred first: AEAD_AES_128_GCM (RFC 7714)
    /// and AES128_CM_HMAC_SHA1_80 (RFC 5764), the two browsers offer.
    public static let dtlsSRTPProfiles: [SRTPCryptoSuite] = [.aeadAES128GCM, .aes128CounterModeHMACSHA1Tag80]

    /// The profile's name in OpenSSL's `use_srtp` list (RFC 5764 §4.1.2, RFC 7714 §14.2), or nil
    /// for a suite DTLS-SRTP does not negotiate here.
    var dtlsProfileName: String? {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80: "SRTP_AES128_CM_SHA1_80"
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        case .aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag80, .aes256CounterModeHMACSHA1Tag32, .aeadAES256GCM: nil
        }
    }

    /// The suite of a `use_srtp` protection profile identifier, or nil for one not negotiated here.
    init?(dtlsProfileIdentifier identifier: UInt) {
        switch identifier {
        case 0x0001: self = .aes128CounterModeHMACSHA1Tag80
        case 0x0007: self = .aeadAES128GCM
        default: return nil
        }
    }
}

/// The SRTP keys a DTLS-SRTP handshake exported (RFC 5764 §4.2): one master key and salt for
/// each direction.
public struct DTLSSRTPKeys: Sendable, Equatable {
    /// The profile the handshake selected.
    public let suite: SRTPCryptoSuite
    /// The key for what this end sends (the client's write key when this end is the client).
    public let local: SRTPMasterKey
    /// The key for what the peer sends.
    public let remote: SRTPMasterKey

    /// Splits exported keying material laid out as client key, server key, client salt, server
    /// salt (RFC 5764 §4.2) into the two directions' keys for an endpoint of `role`.
    /// - Throws: `SRTPError` when `material` is not twice the suite's key and salt long.
    public init(suite: SRTPCryptoSuite, exportedMaterial material: [UInt8], role: DTLSRole) throws(SRTPError) {
        let keyLength = suite.masterKeyLength
        let saltLength = suite.masterSaltLength
        guard material.count == 2 * (keyLength + saltLength) else {
            throw .invalidKeyLength(suite: suite, expected: 2 * suite.keyMaterialLength, actual: material.count)
        }
        let clientKey = material[0..<keyLength]
        let serverKey = material[keyLength..<(2 * keyLength)]
        let clientSalt = material[(2 * keyLength)..<(2 * keyLength + saltLength)]
        let serverSalt = material[(2 * keyLength + saltLength)...]
        let client = try SRTPMasterKey(suite: suite, key: clientKey, salt: clientSalt)
        let server = try SRTPMasterKey(suite: suite, key: serverKey, salt: serverSalt)
        self.suite = suite
        (local, remote) = role == .client ? (client, server) : (server, client)
    }
}
