import RTP
import SecureTransport

/// Where a ``WebRTCCall`` is.
public enum WebRTCCallState: Sendable, Equatable {
    /// Answered; waiting for the peer's nominating connectivity check and the DTLS handshake.
    case connecting
    /// ICE nominated a pair, DTLS-SRTP completed with `suite` in `role`, and media flows.
    case connected(suite: SRTPCryptoSuite, role: DTLSRole)
    /// The call is over; `reason` says why (hang-up, peer closed DTLS, consent expired, wrong
    /// fingerprint, handshake timeout, …).
    case ended(reason: String)

    /// Whether the call is over.
    public var isEnded: Bool {
        if case .ended = self { return true }
        return false
    }
}
