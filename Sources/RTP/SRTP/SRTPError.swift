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
    /// another key.
    case authenticationFailed(SRTPOperation)
    /// The packet's index was already received inside the replay window; on protect, the
    /// sequence number was already used.
    case replayed(SRTPOperation)
    /// The packet's index is older than the replay window, so it cannot be checked and is
    /// refused.
    case replayTooOld(SRTPOperation)
    /// The packet is malformed: too short for its header and trailer, a header whose CSRC
    /// count or extension runs past the end, or an SRTCP packet without the E flag.
    case malformedPacket(SRTPOperation)
    /// The packet carries a master key identifier (RFC 3711 §3.1) other than the session's.
    case unknownMasterKeyIdentifier(SRTPOperation)
    /// The key protected all the SRTCP packets it may (2^31 − 1): a new key is needed
    /// (RFC 3711 §9.2).
    case keyExhausted(SRTPOperation)
    /// The caller's buffer has no room for what protecting adds.
    case bufferTooSmall(SRTPOperation, required: Int, available: Int)
    /// The packet length given is negative, larger than the buffer, or beyond 2^31 − 1 octets.
    case invalidLength(SRTPOperation, length: Int, bufferCount: Int)
    /// Key and salt together do not have the length the suite needs.
    case invalidKeyLength(suite: SRTPCryptoSuite, expected: Int, actual: Int)
    /// The replay window size is outside 64 to 32 768 packets.
    case invalidReplayWindowSize(Int)
    /// The master key identifier is longer than 128 octets.
    case invalidMasterKeyIdentifierLength(Int)
    /// The maximum number of streams is below 1.
    case invalidMaximumStreamCount(Int)
    /// An OpenSSL call failed (named), which only happens when the library is broken or out
    /// of memory.
    case cryptoLibraryFailure(String)

    /// What failed, in one line, naming the operation.
    public var description: String {
        switch self {
        case .authenticationFailed(let operation):
            "\(operation): authentication failed"
        case .replayed(let operation):
            "\(operation): packet index already seen, replay refused"
        case .replayTooOld(let operation):
            "\(operation): packet index older than the replay window"
        case .malformedPacket(let operation):
            "\(operation): malformed packet"
        case .unknownMasterKeyIdentifier(let operation):
            "\(operation): unknown master key identifier"
        case .keyExhausted(let operation):
            "\(operation): every SRTCP index of the key is used, a new key is needed"
        case .bufferTooSmall(let operation, let required, let available):
            "\(operation): buffer of \(available) octets, \(required) needed"
        case .invalidLength(let operation, let length, let bufferCount):
            "\(operation): packet length \(length) does not fit a buffer of \(bufferCount) octets"
        case .invalidKeyLength(let suite, let expected, let actual):
            "\(suite.sdesName) needs \(expected) octets of master key and salt, got \(actual)"
        case .invalidReplayWindowSize(let size):
            "replay window of \(size) packets; 64 to 32768 are accepted"
        case .invalidMasterKeyIdentifierLength(let length):
            "master key identifier of \(length) octets; at most 128 are accepted"
        case .invalidMaximumStreamCount(let count):
            "room for \(count) streams; at least 1 is needed"
        case .cryptoLibraryFailure(let call):
            "OpenSSL: \(call) failed"
        }
    }
}
