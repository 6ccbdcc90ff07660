import QualityMetrics
import PlayoutLab
/// Minimum, mean and maximum of a per-packet figure in milliseconds, as tshark's
/// `-z rtp,streams` lists them.
///
/// Until a packet has contributed, ``minimum`` is −1 and ``mean`` and ``maximum`` are 0:
/// tshark prints exactly that (for example `-1.000 0.000 0.000` for the jitter of a stream
/// whose clock rate it does not know).
public struct WiresharkMillisecondFigures: Sendable, Hashable, Codable {
    /// The smallest value, or −1 when no packet contributed.
    public internal(set) var minimum: Double
    /// Wireshark's running mean (see ``WiresharkRTPStreamStatistics`` for how it weighs).
    public internal(set) var mean: Double
    /// The largest value, or 0 when no packet contributed.
    public internal(set) var maximum: Double

    /// Figures with the given values.
    public init(minimum: Double, mean: Double, maximum: Double) {
        self.minimum = minimum
        self.mean = mean
        self.maximum = maximum
    }

    /// The figures of a stream no packet has contributed to: −1 / 0 / 0.
    public static let none = WiresharkMillisecondFigures(minimum: -1, mean: 0, maximum: 0)

    /// Takes `value` into the minimum and maximum, and into the running mean as the
    /// `position`-th value, the way Wireshark does (`mean = (mean × (position − 1) + value) /
    /// position`, where `position` counts every packet before this one, not only contributing
    /// ones).
    mutating func include(_ value: Double, position: UInt32) {
        if value > maximum { maximum = value }
        if minimum == -1 || value < minimum { minimum = value }
        mean = (mean * Double(position &- 1) + value) / Double(position)
    }
}
