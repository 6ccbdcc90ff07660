internal import CSRTP
import RTP

/// One libsrtp2 session (`srtp_t`) behind our SRTP types: the independent implementation the
/// differential tests, the differential fuzz target and the SRTP bench compare ours with.
/// Never linked by the library.
///
/// `@unchecked Sendable`: one owner at a time uses it, as libsrtp requires (it has no locking).
public final class LibSRTPSession: @unchecked Sendable {
    /// Which SSRCs the session serves: any sender of ours, or any peer.
    public enum Direction: Sendable {
        /// Protects what we send (`ssrc_any_outbound`).
        case outbound
        /// Unprotects what we receive (`ssrc_any_inbound`).
        case inbound
    }

    /// The libsrtp version, such as `libsrtp2 2.5.0`.
    public static var version: String { String(cString: srtp_get_version_string()) }

    /// The suite of the session's key.
    public let suite: SRTPCryptoSuite
    private let handle: OpaquePointer

    /// Creates a session for every SSRC in `direction` under `key`, with libsrtp's replay window
    /// of `replayWindowSize` packets and SRTCP tags of `rtcpTagLength`.
    public init(
        key: SRTPMasterKey, direction: Direction, replayWindowSize: Int = SRTPSessionOptions.defaultReplayWindowSize,
        rtcpTagLength: SRTCPTagLength = .rfc3711
    ) throws(SRTPError) {
        try Self.ensureInitialized()
        var policy = srtp_policy_t()
        key.suite.configure(rtp: &policy.rtp, rtcp: &policy.rtcp, rtcpTagLength: rtcpTagLength)
        policy.ssrc.type = direction == .outbound ? ssrc_any_outbound : ssrc_any_inbound
        policy.window_size = UInt(replayWindowSize)
        policy.allow_repeat_tx = 0
        var session: srtp_t?
        // srtp_create reads the key only while it derives the session keys.
        let status = key.withUnsafeBytes { keyAndSalt in
            policy.key = UnsafeMutablePointer(mutating: keyAndSalt.baseAddress?.assumingMemoryBound(to: UInt8.self))
            defer { policy.key = nil }
            return srtp_create(&session, &policy)
        }
        guard status == srtp_err_status_ok, let session else {
            throw .cryptoLibraryFailure("srtp_create: status \(status.rawValue)")
        }
        suite = key.suite
        handle = session
    }

    deinit {
        srtp_dealloc(handle)
    }

    /// Runs one libsrtp transform in place on the first `length` octets of `buffer` (which the
    /// caller sized for what protect adds) and returns the new length.
    public func transform(
        _ operation: SRTPOperation, buffer: UnsafeMutableRawBufferPointer, length: Int
    ) throws(SRTPError) -> Int {
        guard length > 0, length <= buffer.count, let start = buffer.baseAddress else {
            throw .malformedPacket(operation)
        }
        var newLength = Int32(length)
        let status =
            switch operation {
            case .protectRTP: srtp_protect(handle, start, &newLength)
            case .protectRTCP: srtp_protect_rtcp(handle, start, &newLength)
            case .unprotectRTP: srtp_unprotect(handle, start, &newLength)
            case .unprotectRTCP: srtp_unprotect_rtcp(handle, start, &newLength)
            }
        guard status == srtp_err_status_ok else { throw Self.error(for: status, in: operation) }
        return Int(newLength)
    }

    /// Sets the rollover counter of `ssrc`'s stream (`srtp_set_stream_roc`; the stream must exist).
    public func setRolloverCounter(_ rolloverCounter: UInt32, ssrc: UInt32) throws(SRTPError) {
        let status = srtp_set_stream_roc(handle, ssrc, rolloverCounter)
        guard status == srtp_err_status_ok else {
            throw .cryptoLibraryFailure("srtp_set_stream_roc: status \(status.rawValue)")
        }
    }

    /// `srtp_init`, once per process.
    private static let initializationStatus: srtp_err_status_t = srtp_init()

    private static func ensureInitialized() throws(SRTPError) {
        guard initializationStatus == srtp_err_status_ok else {
            throw .cryptoLibraryFailure("srtp_init: status \(initializationStatus.rawValue)")
        }
    }

    /// The error of ours that names a libsrtp status.
    private static func error(for status: srtp_err_status_t, in operation: SRTPOperation) -> SRTPError {
        switch status {
        case srtp_err_status_auth_fail: .authenticationFailed(operation)
        case srtp_err_status_replay_fail: .replayed(operation)
        case srtp_err_status_replay_old, srtp_err_status_pkt_idx_old: .replayTooOld(operation)
        case srtp_err_status_bad_mki: .unknownMasterKeyIdentifier(operation)
        case srtp_err_status_key_expired: .keyExhausted(operation)
        case srtp_err_status_bad_param, srtp_err_status_parse_err, srtp_err_status_cipher_fail,
            srtp_err_status_cant_check:
            .malformedPacket(operation)
        default: .cryptoLibraryFailure("libsrtp status \(status.rawValue) in \(operation)")
        }
    }
}

extension SRTPCryptoSuite {
    /// Sets libsrtp's crypto policies for SRTP and SRTCP to this suite.
    func configure(rtp: inout srtp_crypto_policy_t, rtcp: inout srtp_crypto_policy_t, rtcpTagLength: SRTCPTagLength) {
        let shortRTCP = rtcpTagLength == .sameAsRTP
        switch self {
        case .aes128CounterModeHMACSHA1Tag80:
            srtp_crypto_policy_set_rtp_default(&rtp)
            srtp_crypto_policy_set_rtcp_default(&rtcp)
        case .aes128CounterModeHMACSHA1Tag32:
            srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&rtp)
            if shortRTCP { srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&rtcp) } else { srtp_crypto_policy_set_rtcp_default(&rtcp) }
        case .aes256CounterModeHMACSHA1Tag80:
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtp)
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtcp)
        case .aes256CounterModeHMACSHA1Tag32:
            srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32(&rtp)
            if shortRTCP {
                srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32(&rtcp)
            } else {
                srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80(&rtcp)
            }
        case .aeadAES128GCM:
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&rtp)
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&rtcp)
        case .aeadAES256GCM:
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&rtp)
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&rtcp)
        }
    }
}
