import QualityMetrics
import PlayoutLab
/// What Wireshark 4.0's RTP analysis computed for one packet: the per-packet columns of its RTP
/// Stream Analysis window, handy for plots over time.
public struct WiresharkPacketAnalysis: Sendable, Hashable {
    /// What the analysis noticed about the packet.
    public let flags: WiresharkPacketFlags
    /// Arrival minus that of the last packet with an in-sequence timestamp, in milliseconds
    /// (0 for the first packet; the previous value when this one's timestamp is wrong).
    public let deltaMilliseconds: Double
    /// The jitter estimate after this packet, in milliseconds (unchanged by packets without a
    /// clock or with a wrong timestamp).
    public let jitterMilliseconds: Double
    /// |D|, the packet's deviation from its expected arrival, in milliseconds (0 when no jitter
    /// was computed for it).
    public let differenceMilliseconds: Double
}
