import RTP

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
    /// The port we receive RTP on; RTCP comes to the next port when rtcp-mux is not agreed.
    public var rtpPort: Int
    /// Our codecs in order of preference.
    public var codecs: [SDPCodec]
    /// The payload type for RFC 4733 telephone events, or nil not to offer DTMF events.
    public var telephoneEventPayloadType: Int?
    /// The packet duration we would like to receive (`a=ptime`), in milliseconds.
    public var packetTimeMilliseconds: Int
    /// Whether we offer and accept RTP and RTCP on one port. A peer that declines it gets
    /// RTCP on RTP's port + 1, which the session has bound as well.
    public var rtcpMux: Bool
    /// Which way we are willing to send media (sendonly or inactive to hold the call).
    public var direction: MediaDirection
    /// Our `a=crypto` attributes (RFC 4568), one per SRTP suite we accept, each with our own
    /// key. Empty for plain RTP: an `RTP/SAVP` offer is then refused.
    public var crypto: [SDESCryptoAttribute]
    /// Whether SRTP is required when ``crypto`` is not empty: offers are `RTP/SAVP` and a peer
    /// without a common suite is refused. When false, offers are `RTP/AVP` with `a=crypto`
    /// lines (best-effort SRTP), and a plain answer or offer is accepted in clear.
    public var srtpRequired: Bool
    /// The `o=` session identifier.
    public var sessionID: UInt64
    /// The `o=` session version; ``MediaSession``'s offer and answer methods raise it for each
    /// description they make.
    public var sessionVersion: UInt64

    /// Capabilities with the documented defaults: PCMU then PCMA, telephone events on payload
    /// type 101, 20 ms packets, rtcp-mux, send and receive, no SRTP, a random session identifier.
    public init(
        address: String,
        rtpPort: Int,
        codecs: [SDPCodec] = [.pcmu, .pcma],
        telephoneEventPayloadType: Int? = 101,
        packetTimeMilliseconds: Int = 20,
        rtcpMux: Bool = true,
        direction: MediaDirection = .sendReceive,
        crypto: [SDESCryptoAttribute] = [],
        srtpRequired: Bool = true,
        sessionID: UInt64 = UInt64.random(in: 1...UInt64(Int64.max)),
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
        self.srtpRequired = srtpRequired
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// The transport profile of our offers: `RTP/SAVP` when SRTP is required, else `RTP/AVP`.
    var offeredProfile: String { !crypto.isEmpty && srtpRequired ? "RTP/SAVP" : "RTP/AVP" }
}
