import Codecs
import Jitter
import MediaSession
import RTP
import SIP

/// Everything `mediabench phone` needs, checked before any socket is opened.
struct PhoneSettings {
    /// How SRTP is offered and accepted.
    enum SRTPPolicy: Equatable {
        /// Plain RTP only.
        case none
        /// Best-effort SRTP: dialling offers `RTP/AVP` with an `a=crypto` line per suite and
        /// uses SRTP when the answer has one; answering takes SRTP when the offer has a line.
        case optional
        /// These suites, required.
        case suites([SRTPCryptoSuite])
    }

    /// What to do about RFC 5761 rtcp-mux.
    enum MuxPolicy: String, CaseIterable {
        /// Offer (or accept) mux, fall back to separate ports when the peer declines.
        case offer
        /// Offer mux and end the call when the peer declines it.
        case require
        /// Never mux.
        case no
    }

    var listen: SocketAddress = .loopbackIPv4()
    var from: SIPURI?
    var credentials: DigestCredentials?
    var registrar: String?
    var calls = 1
    var codecs: [SDPCodec] = [.opus, .pcmu, .pcma]
    var srtp = SRTPPolicy.none
    var mux = MuxPolicy.offer
    var input: (samples: [Int16], format: AudioFormat)?
    var outputPath: String?
    var durationSeconds = 30.0
    var dtmf = ""
    var holdAtSeconds: Double?
    var resumeAtSeconds: Double?
    var capturePath: String?
    var jitterBuffer = JitterBufferConfiguration()
    var json = false

    /// `ADDR:PORT` (an IPv6 address in brackets), or a usage error naming the flag.
    static func address(_ text: String, flag: String) throws(UsageError) -> SocketAddress {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
            let address = try? SocketAddress(host: String(text[..<colon]), port: port)
        else { throw UsageError("\(flag): expected ADDR:PORT with a literal IP address, got '\(text)'") }
        return address
    }

    /// A `sip:` URI with a literal address, or a usage error naming the flag.
    static func dialableURI(_ text: String, flag: String) throws(UsageError) -> SIPURI {
        guard let uri = try? SIPURI(parsing: text), uri.scheme == "sip", (try? SocketAddress(host: uri.host, port: 0)) != nil else {
            throw UsageError("\(flag): expected a sip: URI with a literal IP address (sip:user@127.0.0.1:5060), got '\(text)'")
        }
        return uri
    }

    /// The SRTP policy of a `--srtp` value.
    static func srtpPolicy(_ values: [String]) throws(UsageError) -> SRTPPolicy {
        if values.isEmpty || values == ["none"] { return .none }
        if values == ["optional"] { return .optional }
        var suites: [SRTPCryptoSuite] = []
        for value in values {
            guard let suite = try CallSettings.srtpSuite(named: value) else {
                throw UsageError("--srtp: none and optional cannot be combined with suites")
            }
            suites.append(suite)
        }
        return .suites(suites)
    }

    /// The SDP codec of a `--codec` value.
    static func codec(_ text: String) throws -> SDPCodec {
        var settings = CallSettings()
        settings.codec = try TranscodeCodec(parsing: text)
        return settings.sdpCodec
    }

    /// The suites to offer or accept.
    var srtpSuites: [SRTPCryptoSuite] {
        switch srtp {
        case .none: []
        case .suites(let suites): suites
        case .optional: SRTPCryptoSuite.allCases
        }
    }

    /// The session configuration of one call, with `audio` as its microphone and speaker.
    func media(audio: PhoneAudioEndpoint) -> MediaSessionConfiguration {
        let host = (try? SocketAddress(host: listen.host, port: 0)) ?? .loopbackIPv4()
        return MediaSessionConfiguration(
            localAddress: host, codecs: codecs, srtpSuites: srtpSuites, srtpRequired: srtp != .optional, rtcpMux: mux != .no,
            jitterBuffer: jitterBuffer,
            echoCancellation: false, noiseSuppression: false, audio: .endpoint(audio), rtcpMinimumIntervalSeconds: 2
        )
    }

    /// The user agent's configuration.
    var agent: SIPUserAgentConfiguration {
        SIPUserAgentConfiguration(
            localAddress: listen, userName: from?.user ?? "mediabench", product: "mediabench/\(Mediabench.version)",
            credentials: credentials, ringTimeoutSeconds: durationSeconds + 5
        )
    }
}
