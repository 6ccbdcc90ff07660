import Locking
public import RTP

/// A ``QualityMonitor`` shared by the session's threads, publishing its reports as an
/// `AsyncStream` that never blocks them.
///
/// The media threads feed it through ``update(_:)``, a short critical section on a
/// `pthread_mutex_t` that allocates nothing; the session's timer calls ``tick(now:)`` once per
/// ``QualityMonitor/Configuration/reportInterval``; the UI reads ``reports``. The stream keeps
/// only the newest few reports (`bufferingNewest`), so a slow or absent reader loses old
/// reports instead of holding memory or blocking a thread.
///
/// ```swift
/// let live = LiveQualityMonitor(QualityMonitor(codec: codec, start: now))
/// // network thread, per packet:
/// live.update { $0.update(reception: ReceptionCounters(statistics)); $0.record(.received) }
/// // timer, every second:
/// live.tick(now: now)
/// // UI:
/// for await report in live.reports { print(report) }
/// ```
public final class LiveQualityMonitor: Sendable {
    /// The reports, one per ``tick(now:)``, the newest ``bufferedReports`` kept for a slow reader.
    public let reports: AsyncStream<QualityReport>
    /// How many unread reports the stream keeps.
    public let bufferedReports: Int

    private let monitor: PThreadLock<QualityMonitor>
    private let continuation: AsyncStream<QualityReport>.Continuation

    /// Shares `monitor`, keeping at most `bufferedReports` (at least 1) unread reports.
    public init(_ monitor: QualityMonitor, bufferedReports: Int = 8) {
        self.bufferedReports = max(bufferedReports, 1)
        self.monitor = PThreadLock(monitor)
        (reports, continuation) = AsyncStream.makeStream(of: QualityReport.self, bufferingPolicy: .bufferingNewest(self.bufferedReports))
    }

    deinit {
        continuation.finish()
    }

    /// Runs `body` on the monitor under the lock: keep it short (a few feeding calls).
    public func update<Result>(_ body: (inout QualityMonitor) -> Result) -> Result {
        monitor.withLock(body)
    }

    /// Makes the report for the interval ending at `now`, publishes it on ``reports`` and
    /// returns it. Never waits for a reader.
    @discardableResult
    public func tick(now: MediaTime) -> QualityReport {
        let report = monitor.withLock { $0.makeReport(now: now) }
        continuation.yield(report)
        return report
    }

    /// Ends ``reports`` (at the end of the call); later ticks still return reports.
    public func finish() {
        continuation.finish()
    }
}
