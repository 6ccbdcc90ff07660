internal import COpus

/// An Opus audio bandwidth: the highest audio frequency a packet carries (RFC 6716 §2).
public enum OpusBandwidth: Int, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// 4 kHz audio bandwidth, 8 kHz effective sample rate.
    case narrowband
    /// 6 kHz audio bandwidth, 12 kHz effective sample rate.
    case mediumband
    /// 8 kHz audio bandwidth, 16 kHz effective sample rate.
    case wideband
    /// 12 kHz audio bandwidth, 24 kHz effective sample rate.
    case superWideband
    /// 20 kHz audio bandwidth, 48 kHz effective sample rate.
    case fullband

    /// The highest audio frequency carried, in hertz.
    public var audioBandwidthHertz: Int {
        switch self {
        case .narrowband: 4000
        case .mediumband: 6000
        case .wideband: 8000
        case .superWideband: 12_000
        case .fullband: 20_000
        }
    }

    /// For example "wideband".
    public var description: String {
        switch self {
        case .narrowband: "narrowband"
        case .mediumband: "mediumband"
        case .wideband: "wideband"
        case .superWideband: "super-wideband"
        case .fullband: "fullband"
        }
    }

    /// Orders bandwidths from narrowband to fullband.
    public static func < (lhs: OpusBandwidth, rhs: OpusBandwidth) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The libopus `OPUS_BANDWIDTH_*` constant.
    var libraryValue: Int32 {
        switch self {
        case .narrowband: OPUS_BANDWIDTH_NARROWBAND
        case .mediumband: OPUS_BANDWIDTH_MEDIUMBAND
        case .wideband: OPUS_BANDWIDTH_WIDEBAND
        case .superWideband: OPUS_BANDWIDTH_SUPERWIDEBAND
        case .fullband: OPUS_BANDWIDTH_FULLBAND
        }
    }

    /// The bandwidth for a libopus `OPUS_BANDWIDTH_*` constant, or nil for any other value.
    init?(libraryValue: Int32) {
        switch libraryValue {
        case OPUS_BANDWIDTH_NARROWBAND: self = .narrowband
        case OPUS_BANDWIDTH_MEDIUMBAND: self = .mediumband
        case OPUS_BANDWIDTH_WIDEBAND: self = .wideband
        case OPUS_BANDWIDTH_SUPERWIDEBAND: self = .superWideband
        case OPUS_BANDWIDTH_FULLBAND: self = .fullband
        default: return nil
        }
    }
}
