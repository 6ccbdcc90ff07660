/// Which codec an SDP description names, with the parameters that belong to it.
public enum CodecParameters: Sendable, Hashable {
    /// G.711 (`PCMU` or `PCMA`), which has no `fmtp` parameters.
    case g711(G711Law)
    /// Opus with its RFC 7587 parameters.
    case opus(OpusParameters)
}

/// A codec as SDP describes it: what `a=rtpmap`, `a=fmtp`, `a=ptime` and `a=maxptime` say,
/// checked and with defaults filled in. Made by ``CodecRegistry/describe(rtpmap:fmtp:ptime:maxptime:)``.
public struct CodecDescription: Sendable, Hashable, CustomStringConvertible {
    /// The codec and its parameters.
    public let parameters: CodecParameters
    /// The RTP clock rate: 8000 for G.711, 48 000 for Opus (whatever rate Opus really runs at).
    public let clockRate: Int
    /// The channels of the `rtpmap`: 1 for G.711, 2 for Opus (RFC 7587 always says 2; the
    /// `stereo` parameters say what is really sent).
    public let channels: Int
    /// `ptime`: the packet duration the receiver wants, in milliseconds, if it said.
    public let packetTimeMilliseconds: Int?
    /// `maxptime`: the longest packet duration the receiver accepts, in milliseconds, if it said.
    public let maximumPacketTimeMilliseconds: Int?

    /// The canonical encoding name: `PCMU`, `PCMA` or `opus`.
    public var encodingName: String {
        parameters.name
    }

    /// The `rtpmap` encoding: for example `PCMU/8000` or `opus/48000/2`.
    public var rtpmap: String {
        channels == 1 ? "\(encodingName)/\(clockRate)" : "\(encodingName)/\(clockRate)/\(channels)"
    }

    /// The `fmtp` value (empty when there is nothing to say).
    public var fmtp: String {
        switch parameters {
        case .g711: ""
        case let .opus(opus): opus.fmtp
        }
    }

    /// For example `opus/48000/2 useinbandfec=1 ptime=20`.
    public var description: String {
        var parts = [rtpmap]
        if !fmtp.isEmpty { parts.append(fmtp) }
        if let packetTimeMilliseconds { parts.append("ptime=\(packetTimeMilliseconds)") }
        if let maximumPacketTimeMilliseconds { parts.append("maxptime=\(maximumPacketTimeMilliseconds)") }
        return parts.joined(separator: " ")
    }
}

extension CodecDescription {
    /// Packet durations Opus can send, in milliseconds (one frame of 5 ... 60 ms, or several).
    public static let opusPacketTimes = [5, 10, 20, 40, 60, 80, 100, 120]

    /// Describes `parameters` at their codec's RTP clock rate and channel count, checking the
    /// packet times against the codec and each other.
    public init(
        _ parameters: CodecParameters,
        packetTimeMilliseconds: Int? = nil,
        maximumPacketTimeMilliseconds: Int? = nil
    ) throws(CodecRegistryError) {
        let packetTimes: [Int]
        switch parameters {
        case .g711:
            (clockRate, channels, packetTimes) = (G711Format.rtpClockRate, 1, G711Format.frameDurations)
        case .opus:
            (clockRate, channels, packetTimes) = (48_000, 2, Self.opusPacketTimes)
        }
        if let packetTimeMilliseconds, !packetTimes.contains(packetTimeMilliseconds) {
            throw .invalidParameter(
                name: "ptime", value: String(packetTimeMilliseconds),
                reason: "this build sends \(parameters.name) packets of \(packetTimes.map(String.init).joined(separator: ", ")) ms"
            )
        }
        if let maximumPacketTimeMilliseconds, maximumPacketTimeMilliseconds < packetTimes[0] {
            throw .invalidParameter(
                name: "maxptime", value: String(maximumPacketTimeMilliseconds),
                reason: "below the shortest \(parameters.name) packet (\(packetTimes[0]) ms)"
            )
        }
        if let packetTimeMilliseconds, let maximumPacketTimeMilliseconds, packetTimeMilliseconds > maximumPacketTimeMilliseconds {
            throw .contradictoryParameters("ptime \(packetTimeMilliseconds) ms exceeds maxptime \(maximumPacketTimeMilliseconds) ms")
        }
        self.parameters = parameters
        self.packetTimeMilliseconds = packetTimeMilliseconds
        self.maximumPacketTimeMilliseconds = maximumPacketTimeMilliseconds
    }
}

extension CodecParameters {
    /// The codec's name for messages: "PCMU", "PCMA" or "opus".
    var name: String {
        switch self {
        case let .g711(law): law.encodingName
        case .opus: "opus"
        }
    }
}
