/// The four packet transforms of an SRTP session, named in errors.
public enum SRTPOperation: Hashable, Sendable, CustomStringConvertible {
    /// Protecting an outgoing RTP packet.
    case protectRTP
    /// Protecting an outgoing RTCP packet.
    case protectRTCP
    /// Verifying and decrypting an incoming SRTP packet.
    case unprotectRTP
    /// Verifying and decrypting an incoming SRTCP packet.
    case unprotectRTCP

    /// A short name such as `SRTP unprotect`.
    public var description: String {
        switch self {
        case .protectRTP: "SRTP protect"
        case .protectRTCP: "SRTCP protect"
        case .unprotectRTP: "SRTP unprotect"
        case .unprotectRTCP: "SRTCP unprotect"
        }
    }
}

/// Why an SRTP operation failed. None of these is fatal to the session: the packet is dropped,
/// the failure is counted in ``SRTPStatistics`` and the session goes on.
///
/// No case carries key material.
public enum SRTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The packet's authentication tag did not verify: it was tampered with, or protected with
    /// another key (libsrtp `srtp_err_status_auth_fail`).
    case authenticationFailed(SRTPOperation)
    /// The packet's index was already received inside the replay window
    /// (libsrtp `srtp_err_status_replay_fail`); on protect, the sequence number was already used.
    case replayed(SRTPOperation)
    /// The packet's index is older than the replay window, so it cannot be checked and is
    /// refused (libsrtp `srtp_err_status_replay_old`).
    case replayTooOld(SRTPOperation)
    /// libsrtp refused the packet as malformed: too short for its header and trailer, or a
    /// header whose CSRC count or extension runs past the end (libsrtp `srtp_err_status_bad_param`).
    case malformedPacket(SRTPOperation)
    /// The caller's buffer has no room for what protecting adds.
    case bufferTooSmall(SRTPOperation, required: Int, available: Int)
    /// The packet length given is negative, larger than the buffer, or beyond what libsrtp takes.
    case invalidLength(SRTPOperation, length: Int, bufferCount: Int)
    /// Key and salt together do not have the length the suite needs.
    case invalidKeyLength(suite: SRTPCryptoSuite, expected: Int, actual: Int)
    /// The replay window size is outside what libsrtp accepts (64 to 32 768 packets).
    case invalidReplayWindowSize(Int)
    /// libsrtp could not be initialised or refused to create the session.
    case sessionCreationFailed(SRTPLibraryStatus)
    /// Another libsrtp status, named in ``SRTPLibraryStatus``.
    case library(SRTPOperation, SRTPLibraryStatus)

    /// What failed, in one line, naming the operation and the libsrtp status where one applies.
    public var description: String {
        switch self {
        case .authenticationFailed(let operation):
            "\(operation): authentication failed (srtp_err_status_auth_fail)"
        case .replayed(let operation):
            "\(operation): packet index already seen, replay refused (srtp_err_status_replay_fail)"
        case .replayTooOld(let operation):
            "\(operation): packet index older than the replay window (srtp_err_status_replay_old)"
        case .malformedPacket(let operation):
            "\(operation): malformed packet (srtp_err_status_bad_param)"
        case .bufferTooSmall(let operation, let required, let available):
            "\(operation): buffer of \(available) octets, \(required) needed"
        case .invalidLength(let operation, let length, let bufferCount):
            "\(operation): packet length \(length) does not fit a buffer of \(bufferCount) octets"
        case .invalidKeyLength(let suite, let expected, let actual):
            "\(suite.sdesName) needs \(expected) octets of master key and salt, got \(actual)"
        case .invalidReplayWindowSize(let size):
            "replay window of \(size) packets; libsrtp accepts 64 to 32768"
        case .sessionCreationFailed(let status):
            "SRTP session creation: libsrtp failed with \(status)"
        case .library(let operation, let status):
            "\(operation): libsrtp failed with \(status)"
        }
    }
}

/// A libsrtp status code (`srtp_err_status_t`) other than the ones ``SRTPError`` names itself.
public struct SRTPLibraryStatus: Hashable, Sendable, CustomStringConvertible {
    /// The raw `srtp_err_status_t` value.
    public let code: Int32

    /// Wraps a raw `srtp_err_status_t` value.
    public init(code: Int32) {
        self.code = code
    }

    /// The libsrtp enumerator name, such as `srtp_err_status_cipher_fail`.
    public var name: String {
        let names = [
            "ok", "fail", "bad_param", "alloc_fail", "dealloc_fail", "init_fail", "terminus",
            "auth_fail", "cipher_fail", "replay_fail", "replay_old", "algo_fail", "no_such_op",
            "no_ctx", "cant_check", "key_expired", "socket_err", "signal_err", "nonce_bad",
            "read_fail", "write_fail", "parse_err", "encode_err", "semaphore_err", "pfkey_err",
            "bad_mki", "pkt_idx_old", "pkt_idx_adv",
        ]
        guard code >= 0, Int(code) < names.count else { return "unknown status \(code)" }
        return "srtp_err_status_" + names[Int(code)]
    }

    /// The name and the code, such as `srtp_err_status_cipher_fail (8)`.
    public var description: String { "\(name) (\(code))" }
}
