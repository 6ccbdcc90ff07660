import Jitter
import QualityMetrics

/// Once a second while a call runs: the quality of what we receive, as the live
/// `QualityMetrics`' `QualityMonitor` rates it, with the session's and the jitter buffer's
/// figures behind it. Published on ``MediaSession/qualityReports``.
public struct MediaQualityReport: Sendable, Equatable {
    /// The monitor's report: MOS and R-factor (E-model), loss, jitter, latency, round trip,
    /// burst/gap figures, and what the far end reports about our stream.
    public var quality: QualityReport
    /// The session's counters, with the peer stream's jitter, loss and the RTCP round trip.
    public var session: MediaSessionStatistics
    /// The jitter buffer's figures: delay, concealment, late and discarded packets.
    public var jitterBuffer: JitterBufferStatistics
}
