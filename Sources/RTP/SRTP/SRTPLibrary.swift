internal import CSRTP

/// The process-wide state of libsrtp: `srtp_init` runs exactly once, on first use, from
/// whichever thread gets there first (a `static let` is initialised atomically).
enum SRTPLibrary {
    /// The status `srtp_init` returned.
    static let initializationStatus: srtp_err_status_t = srtp_init()

    /// Initialises libsrtp if no one has yet, and reports whether it worked.
    static func ensureInitialized() throws(SRTPError) {
        let status = initializationStatus
        guard status == srtp_err_status_ok else {
            throw .sessionCreationFailed(SRTPLibraryStatus(status))
        }
    }

    /// Maps a libsrtp status other than `ok` to the error that names it.
    static func error(for status: srtp_err_status_t, in operation: SRTPOperation) -> SRTPError {
        switch status {
        case srtp_err_status_auth_fail: .authenticationFailed(operation)
        case srtp_err_status_replay_fail: .replayed(operation)
        case srtp_err_status_replay_old: .replayTooOld(operation)
        case srtp_err_status_bad_param: .malformedPacket(operation)
        default: .library(operation, SRTPLibraryStatus(status))
        }
    }
}

extension SRTPLibraryStatus {
    init(_ status: srtp_err_status_t) {
        self.init(code: Int32(bitPattern: status.rawValue))
    }
}

extension SRTPCryptoSuite {
    /// Sets libsrtp's crypto policies for SRTP and SRTCP to this suite, SRTCP's tag as `srtcpTag` says.
    func configure(rtp: inout srtp_crypto_policy_t, rtcp: inout srtp_crypto_policy_t, srtcpTag: SRTCPTagLength) {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80:
            srtp_crypto_policy_set_rtp_default(&rtp)
            srtp_crypto_policy_set_rtcp_default(&rtcp)
        case .aes128CounterModeHMACSHA1Tag32:
            srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&rtp)
            if srtcpTag == .sameAsSRTP {
                srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&rtcp)
            } else {
                srtp_crypto_policy_set_rtcp_default(&rtcp)
            }
        case .aes256CounterModeHMACSHA1Tag32:
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32(&rtp)
            if srtcpTag == .sameAsSRTP {
                srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32(&rtcp)
            } else {
                srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtcp)
            }
        case .aes256CounterModeHMACSHA1Tag80:
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtp)
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtcp)
        case .aeadAES128GCM:
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&rtp)
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&rtcp)
        case .aeadAES256GCM:
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&rtp)
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&rtcp)
        }
    }
}
