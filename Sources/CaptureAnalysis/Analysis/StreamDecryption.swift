import QualityMetrics
import PlayoutLab
import RTP

/// An SRTP master key the user gave for one SSRC, or for every stream.
public struct SRTPKeyAssignment: Sendable {
    /// The stream's SSRC, or `nil` for every stream (`--srtp-key '*:…'`).
    public var ssrc: UInt32?
    /// The master key and salt, with their suite.
    public var key: SRTPMasterKey

    /// A key for the stream `ssrc` (`nil`: any stream).
    public init(ssrc: UInt32?, key: SRTPMasterKey) {
        self.ssrc = ssrc
        self.key = key
    }
}

/// What SRTP decryption of one stream gave.
public struct SRTPReport: Sendable, Hashable, Encodable {
    /// Where the key came from.
    public enum KeySource: String, Sendable, Hashable, Encodable {
        /// An `a=crypto` line of the capture's SDP.
        case sdp
        /// A key given to the analyzer (`--srtp-key`).
        case given
    }

    /// The crypto suite (`AES_CM_128_HMAC_SHA1_80`).
    public var suite: String
    /// Where the key came from.
    public var keySource: KeySource
    /// Packets that authenticated and were decrypted.
    public var decrypted: UInt64
    /// Packets whose authentication tag did not verify.
    public var authenticationFailures: UInt64
    /// Packets refused as replays (a duplicated packet in the capture is one).
    public var replays: UInt64
    /// Packets refused for any other reason (too short, malformed).
    public var otherFailures: UInt64

    enum CodingKeys: String, CodingKey {
        case suite, keySource = "key_source", decrypted, authenticationFailures = "authentication_failures"
        case replays, otherFailures = "other_failures"
    }
}

/// The SRTP (or SRTCP) receive session of one flow and the scratch buffer it decrypts into
/// (the capture's bytes are read-only): one allocation per flow, none per packet. RTP and RTCP
/// of one sender get separate sessions, so that SRTCP failures are counted apart.
///
/// A final class because the session is non-copyable and the analyzer keeps streams in a
/// dictionary; it is used by one analyzer on one thread.
final class StreamDecryption {
    private var session: SRTPInboundSession
    private let scratch: UnsafeMutableRawBufferPointer
    let keySource: SRTPReport.KeySource
    /// Whether the session unprotects SRTCP rather than SRTP.
    let isControl: Bool

    init(key: SRTPMasterKey, keySource: SRTPReport.KeySource, isControl: Bool = false) throws(SRTPError) {
        // The capture may hold a stream's packets far out of order; a wide replay window keeps
        // late ones decryptable.
        var options = SRTPSessionOptions()
        options.replayWindowSize = 4096
        // Peers disagree on SRTCP's tag under the _32 suites (Linphone and baresip: 32 bits).
        options.acceptsEitherRTCPTagLength = true
        session = try SRTPInboundSession(key: key, options: options)
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        self.keySource = keySource
        self.isControl = isControl
    }

    deinit {
        scratch.deallocate()
    }

    /// Verifies and decrypts a copy of `packet` (SRTP, or SRTCP for a control session); returns
    /// the plaintext packet (valid until the next call), or `nil` when it did not authenticate.
    func unprotect(_ packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard packet.count <= scratch.count, let base = packet.baseAddress, let target = scratch.baseAddress else {
            return nil
        }
        target.copyMemory(from: base, byteCount: packet.count)
        do throws(SRTPError) {
            let length =
                isControl
                ? try session.unprotectRTCP(in: scratch, length: packet.count)
                : try session.unprotectRTP(in: scratch, length: packet.count)
            return UnsafeRawBufferPointer(rebasing: scratch[..<length])
        } catch {
            return nil
        }
    }

    /// Whether any packet authenticated.
    var hasDecrypted: Bool { session.statistics.unprotectedPackets > 0 }

    var report: SRTPReport {
        let statistics = session.statistics
        return SRTPReport(
            suite: session.suite.sdesName, keySource: keySource, decrypted: statistics.unprotectedPackets,
            authenticationFailures: statistics.authenticationFailures, replays: statistics.replays,
            otherFailures: statistics.otherFailures)
    }
}
