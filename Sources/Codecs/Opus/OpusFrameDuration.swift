/// The duration of the audio one Opus packet carries (RFC 6716 §2.1.4).
public enum OpusFrameDuration: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 2.5 ms (CELT only; for the lowest delay).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The underscore stands for the decimal point: `milliseconds25` would read as 25 ms.
    case milliseconds2_5
    /// 5 ms (CELT only).
    case milliseconds5
    /// 10 ms.
    case milliseconds10
    /// 20 ms, the usual VoIP packet.
    case milliseconds20
    /// 40 ms (two 20 ms frames in one packet).
    case milliseconds40
    /// 60 ms (three 20 ms frames in one packet).
    case milliseconds60

    /// The duration for a whole number of milliseconds (5, 10, 20, 40 or 60, as in SDP `ptime`),
    /// or nil for any other value.
    public init?(milliseconds: Int) {
        switch milliseconds {
        case 5: self = .milliseconds5
        case 10: self = .milliseconds10
        case 20: self = .milliseconds20
        case 40: self = .milliseconds40
        case 60: self = .milliseconds60
        default: return nil
        }
    }

    /// The duration in microseconds.
    public var microseconds: Int {
        switch self {
        case .milliseconds2_5: 2500
        case .milliseconds5: 5000
        case .milliseconds10: 10_000
        case .milliseconds20: 20_000
        case .milliseconds40: 40_000
        case .milliseconds60: 60_000
        }
    }

    /// Samples per channel in one frame at `sampleRate` hertz (exact for every Opus rate).
    public func samplesPerChannel(sampleRate: Int) -> Int {
        sampleRate / 400 * microseconds / 2500
    }

    /// For example "20 ms".
    public var description: String {
        self == .milliseconds2_5 ? "2.5 ms" : "\(microseconds / 1000) ms"
    }
}
