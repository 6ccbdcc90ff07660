import Jitter

/// A once-a-second snapshot of a call's figures, published on ``MediaSession/qualityReports``.
///
/// QUALITY HOOK: this is the raw material of the live `QualityMonitor` (QualityMetrics, being
/// written on another branch): when it lands, the session feeds these snapshots to it and
/// publishes its MOS/R-factor report here instead, keeping the figures below.
public struct MediaQualityReport: Sendable, Equatable {
    /// Seconds since the call started.
    public var elapsedSeconds: Double
    /// The session's counters, with the peer stream's jitter, loss and the RTCP round trip.
    public var session: MediaSessionStatistics
    /// The jitter buffer's figures: delay, concealment, late and discarded packets.
    public var jitterBuffer: JitterBufferStatistics
}
