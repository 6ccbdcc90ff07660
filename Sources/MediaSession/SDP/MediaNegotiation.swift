/// A codec we offer or accept: its encoding, the payload type we prefer for it, and its fmtp.
public struct SDPCodec: Sendable, Equatable {
    /// The encoding (name, clock rate, channels).
    public var map: RTPMap
    /// The payload type used when we offer (static ones keep their number; dynamic are 96–127).
    public var payloadType: Int
    /// The `a=fmtp` value we send, if any (for Opus, RFC 7587 parameters such as `useinbandfec=1`).
    public var formatParameters: String?

    /// A codec with the given parts.
    public init(map: RTPMap, payloadType: Int, formatParameters: String? = nil) {
        self.map = map
        self.payloadType = payloadType
        self.formatParameters = formatParameters
    }

    /// PCMU, payload type 0.
    public static let pcmu = SDPCodec(map: RTPMap(encodingName: "PCMU", clockRate: 8000), payloadType: 0)
    /// PCMA, payload type 8.
    public static let pcma = SDPCodec(map: RTPMap(encodingName: "PCMA", clockRate: 8000), payloadType: 8)
    /// Opus (RFC 7587: always `opus/48000/2` in SDP), payload type 111, with in-band FEC.
    public static let opus = SDPCodec(
        map: RTPMap(encodingName: "opus", clockRate: 48000, channels: 2), payloadType: 111,
        formatParameters: "minptime=10;useinbandfec=1"
    )
}

/// What this end can do: the input to offers and answers.
public struct LocalAudioCapabilities: Sendable, Equatable {
    /// The address we receive on (`c=`).
    public var address: String
    /// The port we receive RTP on.
    public var rtpPort: Int
    /// Our codecs in order of preference.
    public var codecs: [SDPCodec]
    /// The payload type for RFC 4733 telephone events, or nil not to offer DTMF events.
    public var telephoneEventPayloadType: Int?
    /// The packet duration we would like to receive (`a=ptime`), in milliseconds.
    public var packetTimeMilliseconds: Int
    /// Whether we offer and accept RTP and RTCP on one port.
    public var rtcpMux: Bool
    /// Which way we are willing to send media (sendonly or inactive to hold the call).
    public var direction: MediaDirection
    /// Our `a=crypto` values (RFC 4568), one per SRTP suite we accept, each with our key. When
    /// not empty, SRTP is required: the transport is RTP/SAVP and a peer without a common suite
    /// is refused.
    public var crypto: [String]
    /// The `o=` session identifier.
    public var sessionID: UInt64
    /// The `o=` session version; raise it for each new offer in the same call.
    public var sessionVersion: UInt64

    /// Capabilities with the documented defaults: PCMU then PCMA, telephone events on payload
    /// type 101, 20 ms packets, rtcp-mux, send and receive, no SRTP.
    public init(
        address: String,
        rtpPort: Int,
        codecs: [SDPCodec] = [.pcmu, .pcma],
        telephoneEventPayloadType: Int? = 101,
        packetTimeMilliseconds: Int = 20,
        rtcpMux: Bool = true,
        direction: MediaDirection = .sendReceive,
        crypto: [String] = [],
        sessionID: UInt64 = 1,
        sessionVersion: UInt64 = 1
    ) {
        self.address = address
        self.rtpPort = rtpPort
        self.codecs = codecs
        self.telephoneEventPayloadType = telephoneEventPayloadType
        self.packetTimeMilliseconds = packetTimeMilliseconds
        self.rtcpMux = rtcpMux
        self.direction = direction
        self.crypto = crypto
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }
}

/// A codec both ends agreed on, with the payload type used on the wire.
public struct NegotiatedCodec: Sendable, Equatable {
    /// The payload type on the wire (the offerer's number).
    public var payloadType: Int
    /// The encoding.
    public var map: RTPMap
    /// The peer's `a=fmtp` for it, if any.
    public var formatParameters: String?
}

/// The outcome of an offer/answer exchange, from our side: everything the media path needs.
public struct NegotiatedAudio: Sendable, Equatable {
    /// Where to send RTP.
    public var remoteAddress: String
    /// The peer's RTP port.
    public var remoteRTPPort: Int
    /// The peer's RTCP port (equal to the RTP port when muxed).
    public var remoteRTCPPort: Int
    /// Whether RTP and RTCP share one port.
    public var rtcpMux: Bool
    /// The codec we send: the first one in common, in the offerer's order.
    public var sendCodec: NegotiatedCodec
    /// Every codec we may receive, by payload type.
    public var receiveCodecs: [NegotiatedCodec]
    /// The telephone-event payload type both ends use, if both offered it.
    public var telephoneEventPayloadType: Int?
    /// The packet duration to send, in milliseconds (the peer's ptime, else ours).
    public var packetTimeMilliseconds: Int
    /// Which way media flows, from our side.
    public var direction: MediaDirection
    /// Our `a=crypto` value in the exchange (our key), when SRTP was agreed.
    public var localCrypto: String?
    /// The peer's `a=crypto` value (its key), when SRTP was agreed.
    public var remoteCrypto: String?
}

/// SDP offer/answer for the audio section (RFC 3264).
public enum MediaNegotiation {
    /// An offer of everything in `local`.
    public static func offer(_ local: LocalAudioCapabilities) -> SessionDescription {
        var codecs = local.codecs
        if let eventType = local.telephoneEventPayloadType {
            var rates: [Int] = []
            for codec in local.codecs where !rates.contains(codec.map.clockRate) {
                rates.append(codec.map.clockRate)
            }
            for rate in rates {
                // One telephone-event per clock rate in use, in the codecs' order of preference;
                // the first takes the configured number, the others the next free ones.
                let payloadType = rate == rates[0] ? eventType : nextFreePayloadType(after: eventType, in: codecs)
                codecs.append(SDPCodec(
                    map: RTPMap(encodingName: "telephone-event", clockRate: rate), payloadType: payloadType,
                    formatParameters: "0-16"
                ))
            }
        }
        return description(local, codecs: codecs, crypto: local.crypto)
    }

    /// Answers `offer`'s audio section: keeps the offered codecs we also have, in the offerer's
    /// order and with its payload types; picks the first common SRTP suite; answers the direction.
    /// - Throws: ``SDPError`` when there is no audio section, no common codec or no common SRTP suite.
    public static func answer(
        to offer: SessionDescription,
        with local: LocalAudioCapabilities
    ) throws(SDPError) -> (answer: SessionDescription, media: NegotiatedAudio) {
        let remote = try audioSection(of: offer)
        var common: [NegotiatedCodec] = []
        var answered: [SDPCodec] = []
        for payloadType in remote.payloadTypes {
            guard let map = remote.encoding(of: payloadType), let ours = local.codecs.first(where: { $0.map.matches(map) }) else {
                continue
            }
            common.append(NegotiatedCodec(payloadType: payloadType, map: map, formatParameters: remote.formatParameters[payloadType]))
            answered.append(SDPCodec(map: map, payloadType: payloadType, formatParameters: ours.formatParameters))
        }
        guard let send = common.first else {
            throw SDPError(reason: "no codec in common with the offer (offered: \(offeredNames(remote)))")
        }
        let events = local.telephoneEventPayloadType == nil ? nil : telephoneEvent(in: remote, clockRate: send.map.clockRate)
        if let events, let map = remote.encoding(of: events) {
            answered.append(SDPCodec(map: map, payloadType: events, formatParameters: remote.formatParameters[events]))
        }
        let (localCrypto, remoteCrypto) = try chooseCrypto(offered: remote.crypto, local: local.crypto)
        let direction = remote.direction.answer(willing: local.direction)
        var answerCapabilities = local
        answerCapabilities.direction = direction
        answerCapabilities.rtcpMux = local.rtcpMux && remote.rtcpMux
        let answer = description(answerCapabilities, codecs: answered, crypto: localCrypto.map { [$0] } ?? [])
        let media = negotiated(
            remote: remote, session: offer, codecs: common, events: events, local: answerCapabilities,
            direction: direction, crypto: (localCrypto, remoteCrypto)
        )
        return (answer, media)
    }

    /// Applies the peer's `answer` to the offer we made from `local`.
    /// - Throws: ``SDPError`` when the answer rejects the audio, names codecs we did not offer,
    ///   or drops SRTP we required.
    public static func apply(answer: SessionDescription, toOfferFrom local: LocalAudioCapabilities) throws(SDPError) -> NegotiatedAudio {
        let remote = try audioSection(of: answer)
        var common: [NegotiatedCodec] = []
        for payloadType in remote.payloadTypes {
            guard let map = remote.encoding(of: payloadType), map.encodingName.lowercased() != "telephone-event" else { continue }
            guard local.codecs.contains(where: { $0.map.matches(map) }) else {
                throw SDPError(reason: "the answer names \(map.text), which was not offered")
            }
            common.append(NegotiatedCodec(payloadType: payloadType, map: map, formatParameters: remote.formatParameters[payloadType]))
        }
        guard let send = common.first else { throw SDPError(reason: "the answer accepts none of the offered codecs") }
        var localCrypto: String?
        var remoteCrypto: String?
        if !local.crypto.isEmpty {
            guard let chosen = remote.crypto.first, let suite = cryptoSuite(chosen),
                  let ours = local.crypto.first(where: { cryptoSuite($0) == suite })
            else {
                throw SDPError(reason: "SRTP was required but the answer has no a=crypto line with an offered suite")
            }
            localCrypto = ours
            remoteCrypto = chosen
        }
        let events = local.telephoneEventPayloadType == nil ? nil : telephoneEvent(in: remote, clockRate: send.map.clockRate)
        let direction = MediaDirection(sends: local.direction.sends && remote.direction.receives, receives: local.direction.receives && remote.direction.sends)
        var capabilities = local
        capabilities.rtcpMux = local.rtcpMux && remote.rtcpMux
        return negotiated(
            remote: remote, session: answer, codecs: common, events: events, local: capabilities,
            direction: direction, crypto: (localCrypto, remoteCrypto)
        )
    }

    private static func audioSection(of description: SessionDescription) throws(SDPError) -> MediaDescription {
        guard let audio = description.audio else { throw SDPError(reason: "no m=audio section") }
        guard audio.port != 0 else { throw SDPError(reason: "the audio stream is rejected (port 0)") }
        guard audio.connection ?? description.connection != nil else {
            throw SDPError(reason: "no c= line for the audio section")
        }
        return audio
    }

    private static func negotiated(
        remote: MediaDescription, session: SessionDescription, codecs: [NegotiatedCodec], events: Int?,
        local: LocalAudioCapabilities, direction: MediaDirection, crypto: (String?, String?)
    ) -> NegotiatedAudio {
        let rtcpPort = local.rtcpMux ? remote.port : remote.rtcpPort ?? remote.port + 1
        return NegotiatedAudio(
            remoteAddress: (remote.connection ?? session.connection)?.address ?? "",
            remoteRTPPort: remote.port,
            remoteRTCPPort: rtcpPort,
            rtcpMux: local.rtcpMux,
            sendCodec: codecs[0],
            receiveCodecs: codecs,
            telephoneEventPayloadType: events,
            packetTimeMilliseconds: remote.packetTimeMilliseconds ?? local.packetTimeMilliseconds,
            direction: direction,
            localCrypto: crypto.0,
            remoteCrypto: crypto.1
        )
    }

    private static func description(_ local: LocalAudioCapabilities, codecs: [SDPCodec], crypto: [String]) -> SessionDescription {
        var rtpMaps: [Int: RTPMap] = [:]
        var parameters: [Int: String] = [:]
        for codec in codecs {
            rtpMaps[codec.payloadType] = codec.map
            if let fmtp = codec.formatParameters { parameters[codec.payloadType] = fmtp }
        }
        let connection = SDPConnection(address: local.address)
        let audio = MediaDescription(
            port: local.rtpPort,
            transport: crypto.isEmpty ? "RTP/AVP" : "RTP/SAVP",
            payloadTypes: codecs.map(\.payloadType),
            rtpMaps: rtpMaps,
            formatParameters: parameters,
            packetTimeMilliseconds: local.packetTimeMilliseconds,
            direction: local.direction,
            rtcpMux: local.rtcpMux,
            crypto: crypto
        )
        return SessionDescription(
            origin: SDPOrigin(sessionID: local.sessionID, sessionVersion: local.sessionVersion, address: connection),
            connection: connection,
            media: [audio]
        )
    }

    private static func telephoneEvent(in section: MediaDescription, clockRate: Int) -> Int? {
        let events = section.payloadTypes.filter { section.encoding(of: $0)?.encodingName.lowercased() == "telephone-event" }
        return events.first { section.encoding(of: $0)?.clockRate == clockRate } ?? events.first
    }

    private static func chooseCrypto(offered: [String], local: [String]) throws(SDPError) -> (String?, String?) {
        guard !local.isEmpty else { return (nil, nil) }
        for remote in offered {
            guard let suite = cryptoSuite(remote), let tag = remote.split(separator: " ").first,
                  let ours = local.first(where: { cryptoSuite($0) == suite })
            else { continue }
            // The answer repeats the offer's tag with our own key (RFC 4568 §7.1.2).
            let ourParameters = ours.split(separator: " ", maxSplits: 1).dropFirst().first ?? ""
            return ("\(tag) \(ourParameters)", remote)
        }
        throw SDPError(reason: "SRTP is required but no offered a=crypto suite is one of ours")
    }

    /// The suite name of an `a=crypto` value: its second field.
    private static func cryptoSuite(_ value: String) -> Substring? {
        let fields = value.split(separator: " ")
        return fields.count >= 3 ? fields[1] : nil
    }

    private static func nextFreePayloadType(after payloadType: Int, in codecs: [SDPCodec]) -> Int {
        var candidate = payloadType + 1
        while codecs.contains(where: { $0.payloadType == candidate }) || candidate > 127 {
            candidate = candidate > 127 ? 96 : candidate + 1
        }
        return candidate
    }

    private static func offeredNames(_ section: MediaDescription) -> String {
        section.payloadTypes.map { section.encoding(of: $0)?.text ?? "PT \($0)" }.joined(separator: ", ")
    }
}
