import Codecs
import RTP

/// SDP offer/answer for a voice call (RFC 3264), with SDES SRTP (RFC 4568) and rtcp-mux
/// (RFC 5761): pure functions of the descriptions and our capabilities.
///
/// - An answer has one `m=` line per offered one: the first usable audio section is
///   answered, every other section (video, application, a second audio) is refused with
///   port 0 (RFC 3264 §6).
/// - The answer echoes the offer's profile: `RTP/AVP`, `RTP/AVPF`, `RTP/SAVP` or `RTP/SAVPF`;
///   `RTP/AVP` with `a=crypto` lines stays `RTP/AVP`, with SRTP when a suite is in common.
/// - An `RTP/SAVP(F)` offer is answered with SRTP or refused
///   (``MediaNegotiationError/secureProfileWithoutCommonSuite(offeredSuites:)``), never in clear.
/// - The answer's `a=crypto` repeats the tag of the offer line it accepts, with our key; the
///   offerer takes the key of its own line with that tag.
/// - rtcp-mux is used only when both sides say so; otherwise RTCP goes to the peer's
///   `a=rtcp` port or RTP port + 1, and comes to ours.
/// - The answer lists one codec (the first of the offer's we have) and telephone events, so
///   every payload type the peer may send is one the session decodes.
/// - The packet time is checked against the codec here, not when the call starts.
public enum MediaNegotiation {
    /// The profiles of the RTP/AVP family this negotiation answers.
    static let rtpProfiles: Set<String> = ["RTP/AVP", "RTP/AVPF", "RTP/SAVP", "RTP/SAVPF"]

    /// An offer of everything in `local`.
    public static func offer(_ local: LocalAudioCapabilities) -> SessionDescription {
        let audio = section(
            local, transport: local.offeredProfile, codecs: offeredCodecs(local), crypto: local.crypto
        )
        return description(local, media: [audio])
    }

    /// Answers `offer` (see the type's rules).
    /// - Throws: ``MediaNegotiationError`` when the offer cannot be accepted; reply 488.
    public static func answer(
        to offer: SessionDescription,
        with local: LocalAudioCapabilities
    ) throws(MediaNegotiationError) -> (answer: SessionDescription, media: NegotiatedAudio) {
        let audioIndex = try usableAudioSection(of: offer)
        let remote = offer.media[audioIndex]
        guard rtpProfiles.contains(remote.transport) else { throw .unsupportedProfile(remote.transport) }

        var chosen: (payloadType: Int, map: RTPMap, ours: SDPCodec)?
        for payloadType in remote.payloadTypes {
            guard let map = remote.encoding(of: payloadType), let ours = local.codecs.first(where: { $0.map.matches(map) }) else {
                continue
            }
            chosen = (payloadType, map, ours)
            break
        }
        guard let chosen else { throw .noCommonCodec(offered: offeredNames(remote)) }
        let sendCodec = NegotiatedCodec(payloadType: chosen.payloadType, map: chosen.map, formatParameters: remote.formatParameters[chosen.payloadType])
        let crypto = try answerCrypto(offered: remote, local: local)
        let packetTime = try validatedPacketTime(remote.packetTimeMilliseconds ?? local.packetTimeMilliseconds, for: sendCodec)

        var answered = [SDPCodec(map: chosen.map, payloadType: chosen.payloadType, formatParameters: chosen.ours.formatParameters)]
        var receiveCodecs = [sendCodec]
        let events = local.telephoneEventPayloadType == nil ? nil : telephoneEvent(in: remote, clockRate: chosen.map.clockRate)
        if let events, let map = remote.encoding(of: events) {
            answered.append(SDPCodec(map: map, payloadType: events, formatParameters: remote.formatParameters[events]))
            // The answer names one rate, but every telephone-event number the offer declared
            // means events from the offerer: all are received.
            for payloadType in telephoneEvents(in: remote) {
                guard let offeredMap = remote.encoding(of: payloadType) else { continue }
                receiveCodecs.append(NegotiatedCodec(payloadType: payloadType, map: offeredMap, formatParameters: remote.formatParameters[payloadType]))
            }
        }
        var answering = local
        answering.direction = remote.direction.answer(willing: local.direction)
        answering.rtcpMux = local.rtcpMux && remote.rtcpMux
        var media = offer.media.map(refused)
        media[audioIndex] = section(answering, transport: remote.transport, codecs: answered, crypto: crypto.map { [$0.local] } ?? [])
        let negotiated = NegotiatedAudio(
            remoteAddress: address(of: remote, in: offer), remoteRTPPort: remote.port,
            remoteRTCPPort: rtcpPort(of: remote, muxed: answering.rtcpMux), rtcpMux: answering.rtcpMux, profile: remote.transport,
            sendCodec: sendCodec, receiveCodecs: receiveCodecs, telephoneEventPayloadType: events,
            telephoneEventClockRate: events.flatMap { remote.encoding(of: $0)?.clockRate }, packetTimeMilliseconds: packetTime,
            direction: answering.direction, crypto: crypto
        )
        return (description(answering, media: media), negotiated)
    }

    /// Applies the peer's `answer` to the offer we made from `local`.
    /// - Throws: ``MediaNegotiationError`` when the answer rejects the audio, names codecs we
    ///   did not offer, picks an `a=crypto` line we did not offer, or drops SRTP we required.
    public static func apply(
        answer: SessionDescription, toOfferFrom local: LocalAudioCapabilities
    ) throws(MediaNegotiationError) -> NegotiatedAudio {
        guard answer.media.count == 1 else { throw .answerMediaCountMismatch(offered: 1, answered: answer.media.count) }
        let remote = answer.media[0]
        guard remote.media == "audio" else { throw .noAudioSection }
        guard remote.port != 0 else { throw .audioRejected }
        guard remote.connection ?? answer.connection != nil else { throw .noConnectionAddress }
        guard rtpProfiles.contains(remote.transport) else { throw .unsupportedProfile(remote.transport) }

        let offered = offeredCodecs(local)
        var common: [NegotiatedCodec] = []
        var receiveCodecs: [NegotiatedCodec] = []
        for payloadType in remote.payloadTypes {
            guard let map = remote.encoding(of: payloadType) else { continue }
            guard let ours = offered.first(where: { $0.map.matches(map) }) else {
                if map.encodingName.lowercased() == "telephone-event" { continue }
                throw .answerNamesUnofferedCodec(map.text)
            }
            let codec = NegotiatedCodec(payloadType: payloadType, map: map, formatParameters: remote.formatParameters[payloadType])
            if !codec.isTelephoneEvent { common.append(codec) }
            // We receive on the numbers we offered and, where the peer renumbered a dynamic
            // payload type, on its numbers too, unless that number means something else in our offer.
            receiveCodecs.append(NegotiatedCodec(payloadType: ours.payloadType, map: map, formatParameters: codec.formatParameters))
            if ours.payloadType != payloadType, !offered.contains(where: { $0.payloadType == payloadType }) {
                receiveCodecs.append(codec)
            }
        }
        guard let sendCodec = common.first else { throw .noCommonCodec(offered: offered.map(\.map.text)) }
        let crypto = try appliedCrypto(answered: remote, local: local)
        let packetTime = try validatedPacketTime(remote.packetTimeMilliseconds ?? local.packetTimeMilliseconds, for: sendCodec)
        let events = local.telephoneEventPayloadType == nil ? nil : telephoneEvent(in: remote, clockRate: sendCodec.map.clockRate)
        let rtcpMux = local.rtcpMux && remote.rtcpMux
        return NegotiatedAudio(
            remoteAddress: address(of: remote, in: answer), remoteRTPPort: remote.port,
            remoteRTCPPort: rtcpPort(of: remote, muxed: rtcpMux), rtcpMux: rtcpMux, profile: remote.transport,
            sendCodec: sendCodec, receiveCodecs: receiveCodecs, telephoneEventPayloadType: events,
            telephoneEventClockRate: events.flatMap { remote.encoding(of: $0)?.clockRate }, packetTimeMilliseconds: packetTime,
            direction: MediaDirection(sends: local.direction.sends && remote.direction.receives, receives: local.direction.receives && remote.direction.sends),
            crypto: crypto
        )
    }

    // MARK: Sections

    /// The index of the first audio section that can be answered.
    private static func usableAudioSection(of offer: SessionDescription) throws(MediaNegotiationError) -> Int {
        guard offer.media.contains(where: { $0.media == "audio" }) else { throw .noAudioSection }
        guard let index = offer.media.firstIndex(where: { $0.media == "audio" && $0.port != 0 }) else { throw .audioRejected }
        guard offer.media[index].connection ?? offer.connection != nil else { throw .noConnectionAddress }
        return index
    }

    /// `section` refused: port 0, its media, transport and formats repeated, nothing else.
    private static func refused(_ section: MediaDescription) -> MediaDescription {
        MediaDescription(
            media: section.media, port: 0, transport: section.transport, payloadTypes: section.payloadTypes,
            formats: section.formats, direction: .sendReceive
        )
    }

    private static func address(of section: MediaDescription, in description: SessionDescription) -> String {
        (section.connection ?? description.connection)?.address ?? ""
    }

    private static func rtcpPort(of section: MediaDescription, muxed: Bool) -> Int {
        muxed ? section.port : section.rtcpPort ?? section.port + 1
    }

    /// Our codecs and one telephone-event format per clock rate in use, as we offer them,
    /// plus telephone-event/8000 when no codec runs at 8 kHz: RFC 4733 allows any rate, but
    /// many phones (baresip among them) send and expect only 8000, also beside Opus.
    static func offeredCodecs(_ local: LocalAudioCapabilities) -> [SDPCodec] {
        var codecs = local.codecs
        guard let eventType = local.telephoneEventPayloadType else { return codecs }
        var rates: [Int] = []
        for codec in local.codecs where !rates.contains(codec.map.clockRate) {
            rates.append(codec.map.clockRate)
        }
        if !rates.contains(8000) { rates.append(8000) }
        for rate in rates {
            // The first rate takes the configured number, the others the next free ones.
            let payloadType = rate == rates[0] ? eventType : nextFreePayloadType(after: eventType, in: codecs)
            codecs.append(
                SDPCodec(
                    map: RTPMap(encodingName: "telephone-event", clockRate: rate), payloadType: payloadType,
                    formatParameters: "0-16"
                ))
        }
        return codecs
    }

    private static func section(
        _ local: LocalAudioCapabilities, transport: String, codecs: [SDPCodec], crypto: [SDESCryptoAttribute]
    ) -> MediaDescription {
        var rtpMaps: [Int: RTPMap] = [:]
        var parameters: [Int: String] = [:]
        for codec in codecs {
            rtpMaps[codec.payloadType] = codec.map
            if let fmtp = codec.formatParameters { parameters[codec.payloadType] = fmtp }
        }
        return MediaDescription(
            port: local.rtpPort, transport: transport, payloadTypes: codecs.map(\.payloadType), rtpMaps: rtpMaps,
            formatParameters: parameters, packetTimeMilliseconds: local.packetTimeMilliseconds, direction: local.direction,
            rtcpMux: local.rtcpMux, crypto: crypto
        )
    }

    private static func description(_ local: LocalAudioCapabilities, media: [MediaDescription]) -> SessionDescription {
        let connection = SDPConnection(address: local.address)
        return SessionDescription(
            origin: SDPOrigin(sessionID: local.sessionID, sessionVersion: local.sessionVersion, address: connection),
            connection: connection, media: media
        )
    }

    // MARK: Codecs

    /// `milliseconds` if the codec can send packets of that duration.
    private static func validatedPacketTime(_ milliseconds: Int, for codec: NegotiatedCodec) throws(MediaNegotiationError) -> Int {
        let rtpmap = codec.map.text
        guard milliseconds > 0, milliseconds % 10 == 0 else {
            throw .unsupportedPacketTime(milliseconds: milliseconds, codec: rtpmap, reason: "not a multiple of the 10 ms audio clock")
        }
        let registry = CodecRegistry()
        do {
            _ = try registry.describe(rtpmap: rtpmap, fmtp: codec.formatParameters ?? "")
        } catch {
            throw .unusableCodec(codec: rtpmap, reason: error)
        }
        do {
            _ = try registry.describe(rtpmap: rtpmap, fmtp: codec.formatParameters ?? "", ptime: milliseconds)
        } catch {
            throw .unsupportedPacketTime(milliseconds: milliseconds, codec: rtpmap, reason: error.description)
        }
        return milliseconds
    }

    /// The telephone-event format to send with: the one at the audio codec's rate, else the
    /// section's first (often 8000 beside a 48 kHz codec).
    private static func telephoneEvent(in section: MediaDescription, clockRate: Int) -> Int? {
        let events = telephoneEvents(in: section)
        return events.first { section.encoding(of: $0)?.clockRate == clockRate } ?? events.first
    }

    private static func telephoneEvents(in section: MediaDescription) -> [Int] {
        section.payloadTypes.filter { section.encoding(of: $0)?.encodingName.lowercased() == "telephone-event" }
    }

    private static func nextFreePayloadType(after payloadType: Int, in codecs: [SDPCodec]) -> Int {
        var candidate = payloadType + 1
        while codecs.contains(where: { $0.payloadType == candidate }) || candidate > 127 {
            candidate = candidate > 127 ? 96 : candidate + 1
        }
        return candidate
    }

    private static func offeredNames(_ section: MediaDescription) -> [String] {
        section.payloadTypes.map { section.encoding(of: $0)?.text ?? "PT \($0)" }
    }
}
