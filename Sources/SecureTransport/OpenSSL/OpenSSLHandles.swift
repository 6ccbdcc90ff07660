internal import COpenSSL

// The OpenSSL handles SecureTransport uses, each owned by one `~Copyable` value whose `deinit`
// frees it exactly once. Nothing outside this module sees them.

/// Owns an `EVP_PKEY`.
struct PrivateKeyHandle: ~Copyable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// A fresh ECDSA key on NIST P-256 (secp256r1), the curve browsers offer for DTLS certificates.
    static func generateP256() throws(SecureTransportError) -> PrivateKeyHandle {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "EVP_PKEY_CTX_new_from_name"))
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "P-256 key generation"))
        }
        return PrivateKeyHandle(owning: key)
    }

    deinit { EVP_PKEY_free(pointer) }
}

/// Owns an `X509` certificate.
struct CertificateHandle: ~Copyable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// The SHA-256 digest of the certificate's DER encoding (RFC 8122 §5's fingerprint).
    func sha256Digest() throws(SecureTransportError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(pointer, EVP_sha256(), &digest, &length) == 1 else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "X509_digest"))
        }
        return Array(digest.prefix(Int(length)))
    }

    deinit { X509_free(pointer) }
}

/// Owns an `SSL_CTX`.
struct SSLContextHandle: ~Copyable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { SSL_CTX_free(pointer) }
}

/// Owns an `SSL` connection and, through it, its two memory BIOs.
struct SSLConnectionHandle: ~Copyable {
    let pointer: OpaquePointer
    /// The memory BIO OpenSSL reads received datagrams from (owned by the `SSL`).
    let incoming: OpaquePointer
    /// The memory BIO OpenSSL writes records to (owned by the `SSL`).
    let outgoing: OpaquePointer

    /// A connection on `context` reading from and writing to fresh memory BIOs.
    init(context: borrowing SSLContextHandle) throws(SecureTransportError) {
        guard let connection = SSL_new(context.pointer) else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "SSL_new"))
        }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(connection)
            throw .openSSL(OpenSSLErrorQueue.drain(context: "BIO_new"))
        }
        SSL_set_bio(connection, incoming, outgoing)
        pointer = connection
        self.incoming = incoming
        self.outgoing = outgoing
    }

    deinit { SSL_free(pointer) }
}
