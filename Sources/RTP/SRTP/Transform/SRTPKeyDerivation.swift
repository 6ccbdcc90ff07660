/// The session keys of one kind of traffic (SRTP or SRTCP), derived from the master key and
/// salt (RFC 3711 §4.3 with a key derivation rate of 0, RFC 6188 §5.2 for AES-256, RFC 7714 §11
/// for AES-GCM), held in OpenSSL contexts keyed once.
struct SRTPTrafficKeys: ~Copyable {
    /// The session encryption key in its cipher context.
    let cipher: AESCipher
    /// The session authentication key's HMAC states; unkeyed (and unused) for AEAD suites.
    let authentication: HMACSHA1
    /// The session salt: 14 octets for counter mode, 12 for AES-GCM, zero-padded to 16.
    let salt: (UInt64, UInt64)

    /// The derivation labels of RFC 3711 §4.3.1.
    enum Traffic: UInt8 {
        case rtp = 0
        case rtcp = 3
    }

    /// Derives the keys of `traffic` for `suite` from `master` (key followed by salt), with a
    /// cipher context that encrypts (`encrypts`) or decrypts (AES-GCM only differs).
    init(
        suite: SRTPCryptoSuite, master: UnsafeRawBufferPointer, traffic: Traffic, encrypts: Bool
    ) throws(SRTPError) {
        let masterKey = UnsafeRawBufferPointer(rebasing: master.prefix(suite.masterKeyLength))
        let masterSalt = UnsafeRawBufferPointer(rebasing: master.dropFirst(suite.masterKeyLength))
        let deriver = try AESCipher(mode: .counter, key: masterKey)
        // One scratch block for the derived cipher key (up to 32), auth key (20) and salt (14).
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 + HMACSHA1.digestLength + 16, alignment: 8)
        scratch.initializeMemory(as: UInt8.self, repeating: 0)
        defer {
            wipe(scratch)
            scratch.deallocate()
        }
        let cipherKey = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<suite.masterKeyLength])
        let authenticationKey = UnsafeMutableRawBufferPointer(rebasing: scratch[32..<(32 + HMACSHA1.digestLength)])
        let sessionSalt = UnsafeMutableRawBufferPointer(
            rebasing: scratch[(32 + HMACSHA1.digestLength)..<(32 + HMACSHA1.digestLength + suite.masterSaltLength)])
        try Self.derive(cipherKey, label: traffic.rawValue, with: deriver, masterSalt: masterSalt)
        try Self.derive(sessionSalt, label: traffic.rawValue + 2, with: deriver, masterSalt: masterSalt)
        if suite.isAEAD {
            cipher = try AESCipher(mode: .galoisCounter, key: UnsafeRawBufferPointer(cipherKey), encrypts: encrypts)
            authentication = HMACSHA1(key: UnsafeRawBufferPointer(start: nil, count: 0))
        } else {
            try Self.derive(authenticationKey, label: traffic.rawValue + 1, with: deriver, masterSalt: masterSalt)
            cipher = try AESCipher(mode: .counter, key: UnsafeRawBufferPointer(cipherKey))
            authentication = HMACSHA1(key: UnsafeRawBufferPointer(authenticationKey))
        }
        var salt = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &salt) { $0.copyMemory(from: UnsafeRawBufferPointer(sessionSalt)) }
        self.salt = salt
    }

    /// Fills `output` with the key stream of the master key at the IV of RFC 3711 §4.3.1:
    /// the master salt (a 12-octet AEAD salt zero-padded to 14, as libsrtp does) with `label`
    /// XORed into its eighth octet, followed by two zero octets.
    static func derive(
        _ output: UnsafeMutableRawBufferPointer, label: UInt8, with deriver: borrowing AESCipher,
        masterSalt: UnsafeRawBufferPointer
    ) throws(SRTPError) {
        var iv = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &iv) { iv in
            iv.copyMemory(from: masterSalt)
            iv[7] ^= label
        }
        output.initializeMemory(as: UInt8.self, repeating: 0)
        let derived = withUnsafeBytes(of: &iv) { iv in
            deriver.applyKeystream(iv: iv.baseAddress!, to: output.baseAddress!, count: output.count)
        }
        guard derived else { throw .cryptoLibraryFailure("EVP_EncryptUpdate (key derivation)") }
    }
}

extension SRTPCryptoSuite {
    /// Whether the suite is AES-GCM, whose tag comes from the cipher rather than HMAC-SHA1.
    var isAEAD: Bool {
        switch self {
        case .aeadAES128GCM, .aeadAES256GCM: true
        default: false
        }
    }
}
