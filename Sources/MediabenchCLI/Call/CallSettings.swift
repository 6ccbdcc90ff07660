import Codecs
import Jitter
import PlayoutLab
import MediaSession
import NetworkModel
import RTP

/// Everything one `mediabench call` (or `demo`) needs, checked before any socket is opened.
struct CallSettings {
    /// The codec both ends use.
    var codec: TranscodeCodec = .opus(bitsPerSecond: nil)
    /// The SRTP suite, or nil for plain RTP.
    var srtp: SRTPCryptoSuite?
    /// How long the caller talks, in seconds.
    var durationSeconds = 30.0
    /// The network between the two sessions.
    var scenario: NetworkScenario = .clean
    /// The seed of the network's random draws.
    var seed: UInt64 = 1
    /// RFC 4733 digits the caller sends during the call.
    var dtmf = ""
    /// What the caller says, in ``audioFormat``; nil for the built-in ``SpeechLikeSignal``.
    var speech: [Int16]?
    /// Where to record what left the relay, if anywhere.
    var capturePath: String?
    /// Both sessions' jitter buffers.
    var jitterBuffer = JitterBufferConfiguration()

    /// The PCM format of the call's audio: 8 kHz mono for G.711, 48 kHz mono for Opus.
    var audioFormat: AudioFormat {
        switch codec {
        case .g711: AudioFormat(sampleRate: 8000, channels: 1)
        case .opus: AudioFormat(sampleRate: 48000, channels: 1)
        }
    }

    /// The codec as offered in SDP (Opus with `maxaveragebitrate` when a bitrate was given).
    var sdpCodec: SDPCodec {
        switch codec {
        case .g711(.muLaw): return .pcmu
        case .g711(.aLaw): return .pcma
        case let .opus(bitrate):
            var opus = SDPCodec.opus
            if let bitrate { opus.formatParameters = (opus.formatParameters ?? "") + ";maxaveragebitrate=\(bitrate)" }
            return opus
        }
    }

    /// The named scenario, or a usage error listing the known ones.
    static func scenario(named name: String) throws(UsageError) -> NetworkScenario {
        guard let scenario = NetworkScenario(rawValue: name) else {
            let known = NetworkScenario.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--scenario: unknown scenario '\(name)' (known: \(known))")
        }
        return scenario
    }

    /// The suite of SDES name `name` (`none` for plain RTP), or a usage error listing the known ones.
    static func srtpSuite(named name: String) throws(UsageError) -> SRTPCryptoSuite? {
        if name == "none" { return nil }
        guard let suite = SRTPCryptoSuite(sdesName: name) else {
            let known = SRTPCryptoSuite.allCases.map(\.sdesName).joined(separator: ", ")
            throw UsageError("--srtp: unknown suite '\(name)' (known: none, \(known))")
        }
        return suite
    }

    /// `digits` if every one is an RFC 4733 DTMF digit, else a usage error naming the first that is not.
    static func dtmfDigits(_ digits: String) throws(UsageError) -> String {
        if let bad = digits.first(where: { DTMFEventCode.code(for: $0) == nil }) {
            throw UsageError("--dtmf: '\(bad)' is not a DTMF digit (0-9, *, #, A-D)")
        }
        return digits
    }
}
