import RTP

/// One media section (`m=` and its lines), with the audio attributes decoded.
public struct MediaDescription: Sendable, Equatable {
    /// The media type: `audio`, `video`, `application`, …
    public var media: String
    /// The RTP port; 0 rejects or disables the stream.
    public var port: Int
    /// The transport protocol: `RTP/AVP`, `RTP/SAVP` (SRTP with SDES), `RTP/AVPF`, `RTP/SAVPF`,
    /// or another one (`UDP/TLS/RTP/SAVPF`, `UDP/DTLS/SCTP`) kept as written.
    public var transport: String
    /// The payload types offered, in order of preference (for an RTP transport).
    public var payloadTypes: [Int]
    /// The formats of the `m=` line as written; for an RTP transport the payload types, for
    /// another transport (`webrtc-datachannel`, …) its own tokens. An answer that refuses the
    /// section repeats them.
    public var formats: [String]
    /// The section's own `c=` line, overriding the session's.
    public var connection: SDPConnection?
    /// `a=rtpmap` entries by payload type.
    public var rtpMaps: [Int: RTPMap]
    /// `a=fmtp` parameters by payload type, as written.
    public var formatParameters: [Int: String]
    /// `a=ptime`: the packet duration the sender would like to receive, in milliseconds.
    public var packetTimeMilliseconds: Int?
    /// `a=maxptime`: the longest packet duration the sender accepts, in milliseconds.
    public var maximumPacketTimeMilliseconds: Int?
    /// The direction attribute; `sendrecv` when none is given (RFC 3264 §5.1).
    public var direction: MediaDirection
    /// `a=rtcp-mux`: RTP and RTCP share one port (RFC 5761).
    public var rtcpMux: Bool
    /// `a=rtcp:PORT`: RTCP's port when it is not RTP's port + 1 (RFC 3605).
    public var rtcpPort: Int?
    /// The `a=crypto` lines (RFC 4568) whose suite and keys this library reads, in order; a
    /// line with an unknown suite or a malformed key is left out (RFC 4568 §7.1.2: the answerer
    /// ignores what it does not understand). The keys appear only in ``SessionDescription/text``.
    public var crypto: [SDESCryptoAttribute]
    /// Every other attribute, kept in order so nothing the peer said is lost.
    public var otherAttributes: [SDPAttribute]

    /// An audio section with the given parts; unset attributes are absent.
    public init(
        media: String = "audio",
        port: Int,
        transport: String = "RTP/AVP",
        payloadTypes: [Int],
        formats: [String]? = nil,
        connection: SDPConnection? = nil,
        rtpMaps: [Int: RTPMap] = [:],
        formatParameters: [Int: String] = [:],
        packetTimeMilliseconds: Int? = nil,
        maximumPacketTimeMilliseconds: Int? = nil,
        direction: MediaDirection = .sendReceive,
        rtcpMux: Bool = false,
        rtcpPort: Int? = nil,
        crypto: [SDESCryptoAttribute] = [],
        otherAttributes: [SDPAttribute] = []
    ) {
        self.media = media
        self.port = port
        self.transport = transport
        self.payloadTypes = payloadTypes
        self.formats = formats ?? payloadTypes.map(String.init)
        self.connection = connection
        self.rtpMaps = rtpMaps
        self.formatParameters = formatParameters
        self.packetTimeMilliseconds = packetTimeMilliseconds
        self.maximumPacketTimeMilliseconds = maximumPacketTimeMilliseconds
        self.direction = direction
        self.rtcpMux = rtcpMux
        self.rtcpPort = rtcpPort
        self.crypto = crypto
        self.otherAttributes = otherAttributes
    }

    /// The encoding of `payloadType`: its `a=rtpmap`, or the static assignment of RFC 3551
    /// (0 PCMU, 8 PCMA, 9 G722, 18 G729 and the others) when there is none.
    public func encoding(of payloadType: Int) -> RTPMap? {
        rtpMaps[payloadType] ?? RTPMap.staticPayloadType(payloadType)
    }

    /// Whether the transport is SRTP (`RTP/SAVP`, `RTP/SAVPF`, `UDP/TLS/RTP/SAVP(F)`): the
    /// section must not be answered in clear.
    public var isSecureProfile: Bool { transport.hasSuffix("/SAVP") || transport.hasSuffix("/SAVPF") }

    /// Whether the transport is RTP (any of the AVP profiles).
    public var isRTP: Bool { transport.contains("RTP/") }

    /// The lines of the section in the order RFC 4566 gives them, the keys of `a=crypto`
    /// lines written out or replaced by `<redacted>`.
    func lines(redactingKeys: Bool) -> [String] {
        let formatText = isRTP ? payloadTypes.map(String.init) : formats
        var lines = ["m=\(media) \(port) \(transport) " + formatText.joined(separator: " ")]
        if let connection { lines.append("c=\(connection.text)") }
        for payloadType in payloadTypes {
            if let map = rtpMaps[payloadType] { lines.append("a=rtpmap:\(payloadType) \(map.text)") }
            if let parameters = formatParameters[payloadType] { lines.append("a=fmtp:\(payloadType) \(parameters)") }
        }
        if let packetTimeMilliseconds { lines.append("a=ptime:\(packetTimeMilliseconds)") }
        if let maximumPacketTimeMilliseconds { lines.append("a=maxptime:\(maximumPacketTimeMilliseconds)") }
        if let rtcpPort { lines.append("a=rtcp:\(rtcpPort)") }
        if rtcpMux { lines.append("a=rtcp-mux") }
        lines += crypto.map { redactingKeys ? $0.description : $0.attributeLine }
        lines += otherAttributes.map { "a=\($0.text)" }
        lines.append("a=\(direction.rawValue)")
        return lines
    }
}

/// An `a=rtpmap` value: encoding name, clock rate and channels.
public struct RTPMap: Sendable, Equatable {
    /// The encoding name as written (`PCMU`, `opus`, `telephone-event`); compare case-insensitively.
    public var encodingName: String
    /// The RTP clock rate in Hz.
    public var clockRate: Int
    /// Audio channels; 1 when the map does not say.
    public var channels: Int

    /// A map for `encodingName` at `clockRate` with `channels`.
    public init(encodingName: String, clockRate: Int, channels: Int = 1) {
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    /// Whether two maps name the same encoding (case-insensitive name, same rate and channels).
    public func matches(_ other: RTPMap) -> Bool {
        encodingName.lowercased() == other.encodingName.lowercased()
            && clockRate == other.clockRate && channels == other.channels
    }

    /// The static audio payload types of RFC 3551 Table 4 (RTP's `StaticPayloadAssignment`).
    public static func staticPayloadType(_ payloadType: Int) -> RTPMap? {
        guard let type = UInt8(exactly: payloadType), let assignment = StaticPayloadAssignment(payloadType: type), assignment.isAudio
        else { return nil }
        return RTPMap(encodingName: assignment.encodingName, clockRate: Int(assignment.clockRate), channels: assignment.channels)
    }

    /// The `a=rtpmap` form after the payload type: `opus/48000/2`, `PCMU/8000`.
    public var text: String { "\(encodingName)/\(clockRate)" + (channels == 1 ? "" : "/\(channels)") }
}

/// Which way media flows, from the point of view of the side that wrote the description.
public enum MediaDirection: String, Sendable, CaseIterable {
    /// Both ways (the default).
    case sendReceive = "sendrecv"
    /// Only from the writer: the writer has put the call on hold.
    case sendOnly = "sendonly"
    /// Only to the writer.
    case receiveOnly = "recvonly"
    /// Neither way.
    case inactive

    /// The direction an answer takes to an offer of `self` when the answerer is willing to do
    /// `local` (RFC 3264 §6.1): sendonly is answered recvonly, and so on.
    public func answer(willing local: MediaDirection) -> MediaDirection {
        let offerSends = sends, offerReceives = receives
        let answerSends = offerReceives && local.sends
        let answerReceives = offerSends && local.receives
        return MediaDirection(sends: answerSends, receives: answerReceives)
    }

    /// Whether the writer sends media.
    public var sends: Bool { self == .sendReceive || self == .sendOnly }
    /// Whether the writer receives media.
    public var receives: Bool { self == .sendReceive || self == .receiveOnly }

    /// The direction that sends and receives as given.
    public init(sends: Bool, receives: Bool) {
        switch (sends, receives) {
        case (true, true): self = .sendReceive
        case (true, false): self = .sendOnly
        case (false, true): self = .receiveOnly
        case (false, false): self = .inactive
        }
    }
}
