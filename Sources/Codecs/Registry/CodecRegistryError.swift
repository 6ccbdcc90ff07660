/// Why an SDP codec description could not be understood or turned into a codec.
public enum CodecRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `rtpmap` encoding is not `name/clockRate[/channels]`.
    case malformedEncoding(String)
    /// No codec of this name is known (the name as given).
    case unsupportedCodec(String)
    /// The codec is known but not at this clock rate.
    case unsupportedClockRate(codec: String, clockRate: Int, supported: Int)
    /// The codec is known but not with this channel count.
    case unsupportedChannels(codec: String, channels: Int, supported: Int)
    /// An `fmtp` entry is not `name=value`, or a name is given twice.
    case malformedParameter(String)
    /// A parameter's value is not allowed: the parameter, the value as given and why.
    case invalidParameter(name: String, value: String, reason: String)
    /// Parameters that cannot hold together (for example `ptime` above `maxptime`).
    case contradictoryParameters(String)
    /// The codec is described correctly but this build cannot make it.
    case codecUnavailable(String)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case let .malformedEncoding(text):
            "malformed rtpmap encoding '\(text)' (expected name/clockRate[/channels])"
        case let .unsupportedCodec(name):
            "unsupported codec '\(name)' (supported: PCMU/8000, PCMA/8000, opus/48000/2)"
        case let .unsupportedClockRate(codec, clockRate, supported):
            "\(codec) at \(clockRate) Hz is not supported (only \(supported) Hz)"
        case let .unsupportedChannels(codec, channels, supported):
            "\(codec) with \(channels) channels is not supported (only \(supported))"
        case let .malformedParameter(text):
            "malformed fmtp parameter '\(text)'"
        case let .invalidParameter(name, value, reason):
            "invalid \(name)=\(value): \(reason)"
        case let .contradictoryParameters(reason):
            "contradictory parameters: \(reason)"
        case let .codecUnavailable(reason):
            "codec unavailable: \(reason)"
        }
    }
}
