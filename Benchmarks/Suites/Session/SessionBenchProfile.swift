import Jitter
import MediaSession
import RTP

/// The two setups `bench session` measures (`--profile`): PCMU + AES_CM_128_HMAC_SHA1_80 with
/// the jitter buffer on in both.
public enum SessionBenchProfile: String, CaseIterable, Sendable {
    /// Today's softphone session: echo cancelling and denoising on, each session with its own
    /// audio thread, all receiving on one shared I/O thread. The default.
    case softphone
    /// A media server's legs (``MediaSessionConfiguration/serverLeg(audio:)``): no echo
    /// cancelling or denoising, every session received and ticked by one of a
    /// ``MediaRuntime``'s I/O threads, one per core.
    case server

    /// The profile `--profile` names, softphone when none is given.
    static func named(_ name: String?) throws -> SessionBenchProfile {
        guard let name else { return .softphone }
        guard let profile = SessionBenchProfile(rawValue: name) else {
            throw SessionBenchError("unknown session profile '\(name)' (softphone or server)")
        }
        return profile
    }

    /// Whether the captured audio is echo cancelled and denoised.
    var cancelsEchoAndDenoises: Bool {
        self == .softphone
    }

    /// The SRTP suite of every call.
    var srtpSuite: SRTPCryptoSuite {
        .aes128CounterModeHMACSHA1Tag80
    }

    /// A session's configuration on loopback with `audio`, and the jitter buffer's first and least delay at
    /// `jitterFloorMilliseconds`.
    func configuration(audio: MediaAudioIO, jitterFloorMilliseconds: Double) -> MediaSessionConfiguration {
        var configuration: MediaSessionConfiguration
        switch self {
        case .softphone:
            configuration = MediaSessionConfiguration(codecs: [.pcmu], srtpSuites: [srtpSuite], audio: audio)
        case .server:
            configuration = .serverLeg(audio: audio)
        }
        configuration.localAddress = .loopbackIPv4()
        configuration.jitterBuffer.initialDelayMilliseconds = jitterFloorMilliseconds
        configuration.jitterBuffer.minimumDelayMilliseconds = jitterFloorMilliseconds
        return configuration
    }
}
