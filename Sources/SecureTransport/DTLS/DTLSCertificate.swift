internal import COpenSSL

/// A self-signed ECDSA P-256 certificate and its private key, for DTLS-SRTP (RFC 5763 §5:
/// self-signed certificates, authenticated by the fingerprint carried in the signalled SDP).
///
/// Make one per process (``shared``) or per session (``init(commonName:validityDays:)``); the
/// fingerprint goes into `a=fingerprint`.
///
/// `@unchecked Sendable`: the key and certificate are never modified after `init`, and OpenSSL
/// only reads them (under its own reference counting) when a DTLS context takes them.
public final class DTLSCertificate: @unchecked Sendable {
    let key: PrivateKeyHandle
    let certificate: CertificateHandle
    /// The SHA-256 fingerprint of the certificate, for `a=fingerprint`.
    public let fingerprint: CertificateFingerprint

    /// One certificate for the whole process, made on first use.
    public static let shared: Result<DTLSCertificate, SecureTransportError> = Result { () throws(SecureTransportError) in
        try DTLSCertificate()
    }

    /// Generates a fresh P-256 key and a certificate for it, signed with itself (SHA-256),
    /// valid from a day ago for `validityDays`, with a random serial number.
    /// - Throws: ``SecureTransportError/openSSL(_:)`` when OpenSSL refuses a step.
    public init(commonName: String = "MediaEngine", validityDays: Int = 30) throws(SecureTransportError) {
        OpenSSLErrorQueue.clear()
        let key = try PrivateKeyHandle.generateP256()
        guard let x509 = X509_new() else { throw .openSSL(OpenSSLErrorQueue.drain(context: "X509_new")) }
        let certificate = CertificateHandle(owning: x509)
        let serial = Int.random(in: 1...Int(Int32.max))
        let secondsPerDay = 86_400
        guard X509_set_version(x509, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(x509), serial) == 1,
            X509_gmtime_adj(X509_getm_notBefore(x509), -secondsPerDay) != nil,
            X509_gmtime_adj(X509_getm_notAfter(x509), validityDays * secondsPerDay) != nil,
            X509_set_pubkey(x509, key.pointer) == 1,
            let name = X509_get_subject_name(x509),
            X509_NAME_add_entry_by_txt(name, "CN", Self.asciiString, commonName, -1, -1, 0) == 1,
            X509_set_issuer_name(x509, name) == 1,
            X509_sign(x509, key.pointer, EVP_sha256()) > 0
        else {
            throw .openSSL(OpenSSLErrorQueue.drain(context: "self-signed certificate"))
        }
        fingerprint = CertificateFingerprint(algorithm: .sha256, digest: try certificate.sha256Digest())
        self.key = key
        self.certificate = certificate
    }

    /// OpenSSL's `MBSTRING_ASC` (a macro Swift does not import): the name entry is ASCII.
    private static let asciiString: Int32 = 0x1001
}
