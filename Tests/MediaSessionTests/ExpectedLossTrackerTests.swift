@testable import MediaSession
import Foundation
import Testing

/// The policy that sizes the send path's FEC from the peer's loss reports, frame by frame.
@Suite struct ExpectedLossTrackerTests {
    /// `frames` frames of 20 ms, the last of which sees a new report of `fractionLost` (in 1/256).
    static func run(_ tracker: inout ExpectedLossTracker, cell: ReportedLoss, frames: Int, thenReport fractionLost: UInt8) -> Double {
        for _ in 1..<frames { _ = tracker.advanceFrame(latest: cell.latest) }
        cell.record(fractionLost: fractionLost)
        return tracker.advanceFrame(latest: cell.latest)
    }

    @Test func theExpectedLossIsTheSmoothedLossPlusTheMarginAndNoneUnderHalfAPercent() {
        let policy = LossAdaptation(marginPercent: 1, maximumPercent: 25)
        #expect(policy.expectedLossPercent(smoothedLossPercent: 0) == 0)
        #expect(policy.expectedLossPercent(smoothedLossPercent: 0.49) == 0)
        #expect(policy.expectedLossPercent(smoothedLossPercent: 2) == 3)
        #expect(policy.expectedLossPercent(smoothedLossPercent: 60) == 25)
    }

    @Test func eachReportMovesTheEstimateByTheShareOfTheTimeItCovers() {
        let cell = ReportedLoss()
        var tracker = ExpectedLossTracker(policy: LossAdaptation(initialPercent: 1, smoothingSeconds: 5, marginPercent: 1), frameMilliseconds: 20)
        #expect(tracker.percent == 2, "the guess plus the margin before any report")
        // 5 s later, 51/256 = 19.92 % lost: the estimate moves 1 − 1/e of the way.
        let step = 1 - exp(-1.0)
        var smoothed = 1 + step * (51.0 * 100 / 256 - 1)
        #expect(abs(Self.run(&tracker, cell: cell, frames: 250, thenReport: 51) - (smoothed + 1)) < 1e-9)
        // Frames without a report change nothing; a clean report 1 s later moves it 1 − e^(−1/5).
        smoothed *= exp(-0.2)
        #expect(abs(Self.run(&tracker, cell: cell, frames: 50, thenReport: 0) - (smoothed + 1)) < 1e-9)
        #expect(abs(tracker.smoothedLossPercent - smoothed) < 1e-9)
    }

    @Test func steadyRandomLossReportedEachSecondSettlesNearItAndCleanReportsEndTheFEC() {
        let cell = ReportedLoss()
        var tracker = ExpectedLossTracker(policy: LossAdaptation(), frameMilliseconds: 20)
        // 2 % loss of 50 packets a second, as RTCP rounds it: 0 to 3 packets lost per report.
        let lostPerSecond = [1, 0, 2, 1, 3, 0, 1, 1, 2, 0, 1, 1, 0, 2, 1, 1, 3, 0, 1, 1]
        var settled: [Double] = []
        for (second, lost) in lostPerSecond.enumerated() {
            let percent = Self.run(&tracker, cell: cell, frames: 50, thenReport: UInt8(lost * 256 / 50))
            if second >= 10 { settled.append(percent) }
        }
        #expect(settled.allSatisfy { (2...4.5).contains($0) }, "\(settled)")
        var seconds = 0
        while tracker.percent > 0, seconds < 60 {
            _ = Self.run(&tracker, cell: cell, frames: 50, thenReport: 0)
            seconds += 1
        }
        #expect((5...20).contains(seconds), "no FEC after \(seconds) s of clean reports")
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
