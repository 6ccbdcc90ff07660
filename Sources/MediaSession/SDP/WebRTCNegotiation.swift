import SecureTransport

/// What this end brings to a WebRTC answer besides its audio: ICE credentials and the DTLS
/// certificate's fingerprint.
public struct WebRTCLocalTransport: Sendable, Equatable {
    /// Our ICE username fragment and password (`a=ice-ufrag`, `a=ice-pwd`).
    public var ice: ICECredentials
    /// Our certificate's fingerprint (`a=fingerprint`).
    public var fingerprint: CertificateFingerprint

    /// Local transport parameters.
    public init(ice: ICECredentials, fingerprint: CertificateFingerprint) {
        self.ice = ice
        self.fingerprint = fingerprint
    }
}

/// What a WebRTC offer/answer settled: the audio, and the peer's ICE and DTLS parameters.
public struct WebRTCNegotiatedTransport: Sendable, Equatable {
    /// The audio, as ``MediaNegotiation`` negotiates it (the peer's address is its SDP's, usually
    /// the placeholder `0.0.0.0:9`; the ICE-nominated address replaces it).
    public var media: NegotiatedAudio
    /// The peer's ICE credentials.
    public var remoteICE: ICECredentials
    /// The fingerprint the peer's certificate must have.
    public var remoteFingerprint: CertificateFingerprint
    /// Our DTLS role, from the `a=setup` we answered.
    public var dtlsRole: DTLSRole
    /// The audio section's `a=mid`, if the offer named one.
    public var mid: String?
}

/// The offer/answer a browser expects (RFC 8829 JSEP, RFC 8839 ICE SDP, RFC 8842 DTLS SDP,
/// RFC 8843 BUNDLE): `UDP/TLS/RTP/SAVPF`, one bundled audio section with rtcp-mux, ICE-lite with
/// one host candidate, DTLS-SRTP; every other m-line (video, data channel, a second audio) is
/// refused with port 0. `a=ssrc`, `a=msid`, `a=rtcp-fb`, `a=extmap`, `a=rtcp-rsize` and trickle
/// candidates in the offer are tolerated and not echoed.
public enum WebRTCNegotiation {
    /// Answers a browser's `offer` as an ICE-lite endpoint at `local`'s address and port.
    /// - Throws: ``WebRTCOfferError`` when the offer has no usable audio section, no codec in
    ///   common, no rtcp-mux, no ICE credentials, no SHA-256 fingerprint, or `a=setup:holdconn`.
    public static func answer(
        to offer: SessionDescription, with local: LocalAudioCapabilities, transport: WebRTCLocalTransport
    ) throws(WebRTCOfferError) -> (answer: SessionDescription, negotiated: WebRTCNegotiatedTransport) {
        guard let audioIndex = offer.media.firstIndex(where: { $0.media == "audio" && $0.port != 0 }) else {
            throw .noAudioSection
        }
        let audio = offer.media[audioIndex]
        guard audio.transport.hasPrefix("UDP/TLS/RTP/SAVP") else { throw .notDTLSTransport(audio.transport) }
        guard audio.rtcpMux else { throw .rtcpMuxRequired }
        func value(_ name: String) -> String? {
            audio.otherAttributes.first { $0.name == name }?.value ?? offer.attributes.first { $0.name == name }?.value
        }
        guard let ufrag = value("ice-ufrag"), let password = value("ice-pwd") else {
            throw .noICECredentials
        }
        guard let fingerprintText = value("fingerprint"), let fingerprint = CertificateFingerprint(attributeValue: fingerprintText) else {
            throw .noSHA256Fingerprint
        }
        let offeredSetup = value("setup").flatMap(DTLSSetupAttribute.init(rawValue:)) ?? .actpass
        guard let answeredSetup = DTLSSetupAttribute.answer(toOffered: offeredSetup), let role = answeredSetup.role else {
            throw .noDTLSRole(setup: offeredSetup.rawValue)
        }
        var capabilities = local
        capabilities.rtcpMux = true
        capabilities.crypto = []
        // The codecs are negotiated as for plain RTP/AVPF: DTLS, not SDES, keys this call.
        var codecsOnly = audio
        codecsOnly.transport = "RTP/AVPF"
        codecsOnly.crypto = []
        let audioOnly = SessionDescription(origin: offer.origin, sessionName: offer.sessionName, connection: offer.connection, media: [codecsOnly])
        let (plainAnswer, media): (SessionDescription, NegotiatedAudio)
        do {
            (plainAnswer, media) = try MediaNegotiation.answer(to: audioOnly, with: capabilities)
        } catch {
            throw .audio(error)
        }
        var answered = plainAnswer.media[0]
        answered.transport = audio.transport
        let mid = value("mid")
        answered.otherAttributes +=
            (mid.map { [SDPAttribute("mid", $0)] } ?? []) + [
                SDPAttribute("ice-ufrag", transport.ice.usernameFragment),
                SDPAttribute("ice-pwd", transport.ice.password),
                SDPAttribute("fingerprint", transport.fingerprint.attributeValue),
                SDPAttribute("setup", answeredSetup.rawValue),
                SDPAttribute("candidate", "1 1 udp 2130706431 \(local.address) \(local.rtpPort) typ host"),
                SDPAttribute("end-of-candidates"),
            ]
        var sections = offer.media.map(refused)
        sections[audioIndex] = answered
        var sessionAttributes = [SDPAttribute("ice-lite")]
        if let mid, bundles(mid, in: offer) { sessionAttributes.append(SDPAttribute("group", "BUNDLE \(mid)")) }
        let answer = SessionDescription(
            origin: plainAnswer.origin, sessionName: plainAnswer.sessionName, connection: plainAnswer.connection,
            attributes: sessionAttributes, media: sections
        )
        let negotiated = WebRTCNegotiatedTransport(
            media: media, remoteICE: ICECredentials(usernameFragment: ufrag, password: password),
            remoteFingerprint: fingerprint, dtlsRole: role, mid: mid
        )
        return (answer, negotiated)
    }

    /// An answer's section refusing `offered` (RFC 3264 §6: port 0, the offered formats, its mid).
    private static func refused(_ offered: MediaDescription) -> MediaDescription {
        var section = MediaDescription(
            media: offered.media, port: 0, transport: offered.transport, payloadTypes: offered.payloadTypes, direction: .inactive,
            otherAttributes: offered.otherAttributes.filter { $0.name == "mid" })
        section.formats = offered.formats
        return section
    }

    /// Whether the offer's `a=group:BUNDLE` lists `mid`.
    private static func bundles(_ mid: String, in offer: SessionDescription) -> Bool {
        offer.attributes.contains { attribute in
            attribute.name == "group" && (attribute.value?.split(separator: " ").dropFirst().contains { $0 == mid } ?? false)
        }
    }
}

/// Why a browser's offer cannot be answered. Each case names what the offer lacks.
public enum WebRTCOfferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offer has no `m=audio` section with a non-zero port.
    case noAudioSection
    /// The audio section's transport is not `UDP/TLS/RTP/SAVP(F)` (DTLS-SRTP).
    case notDTLSTransport(String)
    /// The audio section does not offer rtcp-mux, which a WebRTC endpoint requires.
    case rtcpMuxRequired
    /// The offer has no `a=ice-ufrag` and `a=ice-pwd`.
    case noICECredentials
    /// The offer has no `a=fingerprint` with a SHA-256 digest.
    case noSHA256Fingerprint
    /// The offer's `a=setup` value leaves us no DTLS role.
    case noDTLSRole(setup: String)
    /// The audio itself cannot be negotiated (codecs, ptime, addresses).
    case audio(MediaNegotiationError)

    /// One line saying what the offer lacks.
    public var description: String {
        switch self {
        case .noAudioSection: "no usable m=audio section in the offer"
        case let .notDTLSTransport(transport): "the audio section's transport \(transport) is not UDP/TLS/RTP/SAVP(F)"
        case .rtcpMuxRequired: "rtcp-mux is required (RFC 8829 §5.1.1)"
        case .noICECredentials: "the offer has no a=ice-ufrag/a=ice-pwd"
        case .noSHA256Fingerprint: "the offer has no a=fingerprint with a SHA-256 digest"
        case let .noDTLSRole(setup): "the offer's a=setup:\(setup) leaves no DTLS role"
        case let .audio(error): "\(error)"
        }
    }
}
