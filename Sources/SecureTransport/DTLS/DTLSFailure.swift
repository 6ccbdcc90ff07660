/// Why a DTLS-SRTP association ended without keys, or was torn down; each ends the call.
public enum DTLSFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer's certificate does not hash to the fingerprint its SDP announced.
    case fingerprintMismatch(expected: CertificateFingerprint, received: CertificateFingerprint)
    /// The peer presented no certificate.
    case noPeerCertificate
    /// The handshake ended without a `use_srtp` profile both ends support.
    case noSRTPProfile
    /// The handshake did not complete within the allowed time.
    case handshakeTimedOut(seconds: Double)
    /// OpenSSL rejected the handshake; the text carries its error strings.
    case handshakeFailed(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case let .fingerprintMismatch(expected, received):
            "DTLS peer certificate fingerprint \(received) does not match the signalled \(expected)"
        case .noPeerCertificate: "DTLS peer presented no certificate"
        case .noSRTPProfile: "DTLS handshake negotiated no SRTP protection profile (use_srtp)"
        case let .handshakeTimedOut(seconds): "DTLS handshake did not complete within \(seconds) s"
        case let .handshakeFailed(detail): "DTLS handshake failed: \(detail)"
        }
    }
}

/// Where a DTLS-SRTP association is.
public enum DTLSState: Equatable, Sendable {
    /// Created; ``DTLSEndpoint/start(now:)`` not called yet.
    case idle
    /// The handshake is under way.
    case handshaking
    /// The handshake completed, the peer's fingerprint matched and keys were exported.
    case connected(DTLSSRTPKeys)
    /// The peer sent close_notify, or this end closed.
    case closed
    /// The association failed; the reason says why.
    case failed(DTLSFailure)
}
