import Glibc  // libm, for the smoothing's exponential

/// The send path's estimate of the loss to size FEC for, following ``LossAdaptation`` one
/// frame at a time from the peer's reports. Audio thread only; allocates nothing.
struct ExpectedLossTracker {
    private let policy: LossAdaptation
    private let frameSeconds: Double
    private var lastReportCount: UInt32 = 0
    private var framesSinceLastReport = 0

    /// The reported loss, smoothed, in percent.
    private(set) var smoothedLossPercent: Double
    /// The loss the encoder should expect, in percent.
    private(set) var percent: Double

    /// A tracker for frames of `frameMilliseconds`, starting at the policy's initial guess.
    init(policy: LossAdaptation, frameMilliseconds: Int) {
        self.policy = policy
        frameSeconds = Double(frameMilliseconds) / 1000
        smoothedLossPercent = policy.initialPercent
        percent = policy.expectedLossPercent(smoothedLossPercent: smoothedLossPercent)
    }

    /// Moves on by one frame, taking `latest` into account when it is a report not seen yet;
    /// returns the expected loss.
    mutating func advanceFrame(latest: ReportedLoss.Snapshot) -> Double {
        framesSinceLastReport += 1
        guard latest.reportCount != lastReportCount else { return percent }
        lastReportCount = latest.reportCount
        let covered = Double(framesSinceLastReport) * frameSeconds
        framesSinceLastReport = 0
        let weight = policy.smoothingSeconds > 0 ? 1 - exp(-covered / policy.smoothingSeconds) : 1
        smoothedLossPercent += weight * (latest.percent - smoothedLossPercent)
        percent = policy.expectedLossPercent(smoothedLossPercent: smoothedLossPercent)
        return percent
    }
}
