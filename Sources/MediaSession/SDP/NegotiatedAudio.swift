import RTP

/// A codec both ends agreed on, with the payload type used on the wire.
public struct NegotiatedCodec: Sendable, Equatable {
    /// The payload type on the wire.
    public var payloadType: Int
    /// The encoding.
    public var map: RTPMap
    /// The peer's `a=fmtp` for it, if any.
    public var formatParameters: String?

    /// A codec on `payloadType` with the given encoding and parameters.
    public init(payloadType: Int, map: RTPMap, formatParameters: String? = nil) {
        self.payloadType = payloadType
        self.map = map
        self.formatParameters = formatParameters
    }

    /// Whether this is an RFC 4733 telephone-event format rather than audio.
    public var isTelephoneEvent: Bool { map.encodingName.lowercased() == "telephone-event" }
}

/// The SRTP keys agreed through SDES: ours for what we send, the peer's for what we receive.
/// Each attribute keeps its suite, tag, lifetime and MKI; `description` redacts the keys.
public struct NegotiatedCrypto: Sendable, Equatable {
    /// Our `a=crypto` in the exchange (the answer's tag, our key): protects what we send.
    public var local: SDESCryptoAttribute
    /// The peer's `a=crypto` in the exchange (its key): unprotects what we receive.
    public var remote: SDESCryptoAttribute

    /// The pair of attributes.
    public init(local: SDESCryptoAttribute, remote: SDESCryptoAttribute) {
        self.local = local
        self.remote = remote
    }

    /// The suite both use.
    public var suite: SRTPCryptoSuite { local.suite }
}

/// The outcome of an offer/answer exchange, from our side: everything the media path needs.
public struct NegotiatedAudio: Sendable, Equatable {
    /// Where to send RTP.
    public var remoteAddress: String
    /// The peer's RTP port.
    public var remoteRTPPort: Int
    /// The peer's RTCP port (equal to the RTP port when muxed, else its `a=rtcp` or RTP + 1).
    public var remoteRTCPPort: Int
    /// Whether RTP and RTCP share one port; when false the session receives RTCP on its RTP
    /// port + 1 and sends it from there.
    public var rtcpMux: Bool
    /// The transport profile of the exchange (`RTP/AVP`, `RTP/AVPF`, `RTP/SAVP`, `RTP/SAVPF`).
    public var profile: String
    /// The codec we send, on the payload type the peer declared for it.
    public var sendCodec: NegotiatedCodec
    /// Every payload type we may receive and what it carries: the codecs and telephone events
    /// on the numbers we declared, and also on the peer's numbers where it renumbered a
    /// dynamic payload type (some peers send with their own numbers).
    public var receiveCodecs: [NegotiatedCodec]
    /// The telephone-event payload type we send with, if both ends offered telephone events.
    public var telephoneEventPayloadType: Int?
    /// The clock rate of that telephone-event format (RFC 4733 allows any; many phones use
    /// only 8000, also beside Opus): the unit of the events' durations. Nil when there are none.
    public var telephoneEventClockRate: Int?
    /// The packet duration to send, in milliseconds (the peer's ptime, else ours): a multiple
    /// of 10 ms the codec supports, checked at negotiation.
    public var packetTimeMilliseconds: Int
    /// Which way media flows, from our side.
    public var direction: MediaDirection
    /// The SDES keys, when SRTP was agreed; nil for plain RTP.
    public var crypto: NegotiatedCrypto?

    /// An outcome with the given parts (the negotiation makes them; tests and tools may too).
    /// A nil `telephoneEventClockRate` with a telephone-event payload type means the send
    /// codec's clock rate.
    public init(
        remoteAddress: String, remoteRTPPort: Int, remoteRTCPPort: Int, rtcpMux: Bool, profile: String = "RTP/AVP",
        sendCodec: NegotiatedCodec, receiveCodecs: [NegotiatedCodec], telephoneEventPayloadType: Int?,
        telephoneEventClockRate: Int? = nil, packetTimeMilliseconds: Int, direction: MediaDirection, crypto: NegotiatedCrypto?
    ) {
        self.remoteAddress = remoteAddress
        self.remoteRTPPort = remoteRTPPort
        self.remoteRTCPPort = remoteRTCPPort
        self.rtcpMux = rtcpMux
        self.profile = profile
        self.sendCodec = sendCodec
        self.receiveCodecs = receiveCodecs
        self.telephoneEventPayloadType = telephoneEventPayloadType
        self.telephoneEventClockRate = telephoneEventPayloadType == nil ? nil : telephoneEventClockRate ?? sendCodec.map.clockRate
        self.packetTimeMilliseconds = packetTimeMilliseconds
        self.direction = direction
        self.crypto = crypto
    }

    /// The payload types received as audio: those of ``receiveCodecs`` with the send codec's
    /// encoding (the one decoder of the call), and the send codec's own.
    public var receiveAudioPayloadTypes: [Int] {
        unique([sendCodec.payloadType] + receiveCodecs.filter { $0.map.matches(sendCodec.map) }.map(\.payloadType))
    }

    /// The payload types received as RFC 4733 telephone events.
    public var receiveTelephoneEventPayloadTypes: [Int] {
        unique((telephoneEventPayloadType.map { [$0] } ?? []) + receiveCodecs.filter(\.isTelephoneEvent).map(\.payloadType))
    }

    private func unique(_ values: [Int]) -> [Int] {
        var seen: [Int] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }
}
