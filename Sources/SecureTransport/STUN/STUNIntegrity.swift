internal import COpenSSL

/// HMAC-SHA1 for STUN's MESSAGE-INTEGRITY (RFC 8489 §14.5), from libcrypto.
enum STUNIntegrity {
    /// The length of an HMAC-SHA1 value.
    static let length = 20

    /// HMAC-SHA1 of `data` under `key`, written into `output` (at least 20 octets).
    static func authenticate(_ data: UnsafeRawBufferPointer, key: [UInt8], into output: UnsafeMutableRawBufferPointer) -> Bool {
        var written: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            HMAC(
                EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count), data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written)
        }
        return result != nil && written == UInt32(length)
    }
}
