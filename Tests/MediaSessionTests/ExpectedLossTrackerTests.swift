@testable import MediaSession
import Testing

/// The policy that sizes the send path's FEC from the peer's loss reports, frame by frame.
@Suite struct ExpectedLossTrackerTests {
    /// One report of `fractionLost` (in 1/256), then `frames` frames without a new one.
    static func run(_ tracker: inout ExpectedLossTracker, cell: ReportedLoss, report fractionLost: UInt8?, frames: Int) -> Double {
        if let fractionLost { cell.record(fractionLost: fractionLost) }
        var percent = tracker.percent
        for _ in 0..<frames { percent = tracker.advanceFrame(latest: cell.latest) }
        return percent
    }

    @Test func theTargetIsTheLossPlusTheMarginClampedAndNoneForNoLoss() {
        let policy = LossAdaptation(marginPercent: 1, maximumPercent: 25)
        #expect(policy.targetPercent(reportedPercent: 0) == 0)
        #expect(policy.targetPercent(reportedPercent: 2) == 3)
        #expect(policy.targetPercent(reportedPercent: 60) == 25)
        #expect(policy.targetPercent(reportedPercent: -3) == 0)
    }

    @Test func theGuessHoldsUntilTheFirstReportWhichReplacesIt() {
        let cell = ReportedLoss()
        var tracker = ExpectedLossTracker(policy: LossAdaptation(initialPercent: 10, decayPercentPerSecond: 1), frameMilliseconds: 20)
        #expect(Self.run(&tracker, cell: cell, report: nil, frames: 500) == 10, "10 s without a report")
        #expect(Self.run(&tracker, cell: cell, report: 0, frames: 1) == 0, "a clean first report, lower than the guess")
    }

    @Test func moreLossAppliesAtOnceLessDecaysToTheNewTarget() {
        let cell = ReportedLoss()
        var tracker = ExpectedLossTracker(policy: LossAdaptation(initialPercent: 1, marginPercent: 1, decayPercentPerSecond: 0.5), frameMilliseconds: 20)
        #expect(Self.run(&tracker, cell: cell, report: 0, frames: 1) == 0)
        // 64/256 = 25 % loss, capped at 25 with the margin.
        #expect(Self.run(&tracker, cell: cell, report: 64, frames: 1) == 25)
        // 5.1 % reported (13/256) plus the margin: 25 falls at 0.5 points per second to 6.1.
        let afterTenSeconds = Self.run(&tracker, cell: cell, report: 13, frames: 500)
        #expect(abs(afterTenSeconds - 20) < 0.05)
        let afterAMinute = Self.run(&tracker, cell: cell, report: nil, frames: 2500)
        #expect(abs(afterAMinute - (13.0 * 100 / 256 + 1)) < 1e-9, "no lower than the newest report's target")
        // The same loss reported again is a new report: it counts, and changes nothing here.
        #expect(Self.run(&tracker, cell: cell, report: 13, frames: 1) == afterAMinute)
    }

    @Test func eachReportIsSeenOnceEvenWithTheSameLoss() {
        let cell = ReportedLoss()
        #expect(cell.latest.reportCount == 0)
        cell.record(fractionLost: 128)
        let first = cell.latest
        cell.record(fractionLost: 128)
        let second = cell.latest
        #expect(first.percent == 50 && second.percent == 50)
        #expect(first.reportCount != second.reportCount && second.reportCount != 0)
    }
}
