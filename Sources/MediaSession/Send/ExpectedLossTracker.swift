/// The send path's running estimate of the loss to size FEC for, following ``LossAdaptation``
/// one frame at a time from the peer's reports. Audio thread only; allocates nothing.
struct ExpectedLossTracker {
    private let policy: LossAdaptation
    /// The decay of one frame, in percentage points.
    private let decayPerFrame: Double
    private var lastReportCount: UInt32 = 0
    /// The target of the newest report: the expected loss decays no lower.
    private var floorPercent: Double

    /// The current expected loss, in percent.
    private(set) var percent: Double

    /// A tracker for frames of `frameMilliseconds`, starting at the policy's initial guess
    /// (which holds until the first report).
    init(policy: LossAdaptation, frameMilliseconds: Int) {
        self.policy = policy
        decayPerFrame = max(policy.decayPercentPerSecond, 0) * Double(frameMilliseconds) / 1000
        percent = min(max(policy.initialPercent, 0), max(policy.maximumPercent, 0))
        floorPercent = percent
    }

    /// Moves on by one frame, taking `latest` into account when it is a report not seen yet;
    /// returns the expected loss.
    mutating func advanceFrame(latest: ReportedLoss.Snapshot) -> Double {
        if latest.reportCount != lastReportCount {
            let target = policy.targetPercent(reportedPercent: latest.percent)
            // The first report replaces the initial guess; later ones raise at once.
            if lastReportCount == 0 || target > percent { percent = target }
            floorPercent = target
            lastReportCount = latest.reportCount
        } else {
            percent = max(percent - decayPerFrame, floorPercent)
        }
        return percent
    }
}
