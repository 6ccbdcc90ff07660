/// Maps SDP codec descriptions to codecs: `PCMU/8000`, `PCMA/8000` and `opus/48000/2` with
/// its RFC 7587 parameters. Encoding names are case-insensitive, as SDP says.
///
/// ``describe(rtpmap:fmtp:ptime:maxptime:)`` checks what the SDP says and fills in defaults;
/// ``makeEncoder(for:)`` and ``makeDecoder(for:)`` build the codec it describes.
public struct CodecRegistry: Sendable {
    /// How G.711 decoders made here conceal lost frames.
    public var g711Concealment: G711ConcealmentMethod

    /// A registry whose G.711 decoders conceal with `g711Concealment`.
    public init(g711Concealment: G711ConcealmentMethod = .appendixI) {
        self.g711Concealment = g711Concealment
    }

    /// Describes the codec of an `a=rtpmap` encoding (`"PCMU/8000"`, `"opus/48000/2"`), its
    /// `a=fmtp` value, and the `a=ptime` and `a=maxptime` values, if any.
    public func describe(
        rtpmap encoding: String,
        fmtp: String = "",
        ptime: Int? = nil,
        maxptime: Int? = nil
    ) throws(CodecRegistryError) -> CodecDescription {
        let fields = encoding.trimmingBlanks().split(separator: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), !fields[0].isEmpty,
            let clockRate = Int(fields[1]), clockRate > 0,
            let channels = fields.count == 3 ? Int(fields[2]) : 1, channels > 0
        else {
            throw .malformedEncoding(encoding)
        }
        let parameters: CodecParameters
        switch fields[0].lowercased() {
        case "pcmu": parameters = .g711(.muLaw)
        case "pcma": parameters = .g711(.aLaw)
        case "opus": parameters = .opus(try OpusParameters(fmtp: fmtp))
        default: throw .unsupportedCodec(String(fields[0]))
        }
        if case .g711 = parameters {
            _ = try FormatParameters(fmtp)  // G.711 has no parameters, but they must still parse
        }
        let description = try CodecDescription(parameters, packetTimeMilliseconds: ptime, maximumPacketTimeMilliseconds: maxptime)
        guard clockRate == description.clockRate else {
            throw .unsupportedClockRate(codec: description.encodingName, clockRate: clockRate, supported: description.clockRate)
        }
        guard channels == description.channels else {
            throw .unsupportedChannels(codec: description.encodingName, channels: channels, supported: description.channels)
        }
        return description
    }

    /// Describes the codec of a static RTP payload type (RFC 3551): 0 is PCMU, 8 is PCMA.
    public func describe(staticPayloadType payloadType: UInt8) throws(CodecRegistryError) -> CodecDescription {
        guard let law = G711Law.allCases.first(where: { $0.staticPayloadType == payloadType }) else {
            throw .unsupportedCodec("static payload type \(payloadType)")
        }
        return try CodecDescription(.g711(law))
    }
}
