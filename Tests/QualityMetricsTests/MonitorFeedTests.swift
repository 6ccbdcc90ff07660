import QualityMetrics
import RTP
import Testing

/// Interval arithmetic, RTCP events and odd inputs, fed with hand-made counters.
@Suite("QualityMonitor feeds")
struct MonitorFeedTests {
    static let start = MediaTime(seconds: 50)

    static func monitor() -> QualityMonitor {
        QualityMonitor(codec: ScriptedCall.pcmu, start: start)
    }

    static func at(_ seconds: Double) -> MediaTime { start + MediaTime(seconds: seconds) }

    @Test func intervalsAreDifferencesOfTheCounters() {
        var monitor = Self.monitor()
        monitor.update(reception: .init(expectedPackets: 50, receivedPackets: 50, duplicatePackets: 0, jitterMilliseconds: 1))
        let first = monitor.makeReport(now: Self.at(1))
        #expect(first.intervalLoss == LossFigures(expectedPackets: 50, lostPackets: 0, unplayedPackets: 0))
        #expect(first.intervalSeconds == 1 && first.elapsedSeconds == 1 && first.timestampSeconds == 51)

        monitor.update(reception: .init(expectedPackets: 100, receivedPackets: 95, duplicatePackets: 0, jitterMilliseconds: 2))
        var playout = PlayoutFigures.zero
        playout.latePackets = 2
        monitor.update(playout: playout)
        let second = monitor.makeReport(now: Self.at(2))
        #expect(second.intervalLoss.expectedPackets == 50 && second.intervalLoss.lostPackets == 5)
        #expect(second.intervalLoss.networkLossPercent == 10 && second.intervalLoss.effectiveLossPercent == 14)
        #expect(second.cumulativeLoss.networkLossPercent == 5 && second.cumulativeLoss.effectiveLossPercent == 7)
        #expect(second.jitterMilliseconds == 2)

        // Five duplicates and the late arrival of the five missing packets: no negative loss
        // in the interval, and the cumulative loss goes back to zero.
        monitor.update(reception: .init(expectedPackets: 150, receivedPackets: 155, duplicatePackets: 5, jitterMilliseconds: 2))
        let third = monitor.makeReport(now: Self.at(3))
        #expect(third.intervalLoss.expectedPackets == 50 && third.intervalLoss.lostPackets == 0)
        #expect(third.cumulativeLoss.lostPackets == 0)

        // The statistics restart on a new source: what the old one counted is kept.
        monitor.update(reception: .init(expectedPackets: 20, receivedPackets: 19, duplicatePackets: 0, jitterMilliseconds: 0))
        let fourth = monitor.makeReport(now: Self.at(4))
        #expect(fourth.intervalLoss.expectedPackets == 20 && fourth.intervalLoss.lostPackets == 1)
        #expect(fourth.cumulativeLoss.expectedPackets == 170 && fourth.cumulativeLoss.lostPackets == 1)
        #expect(fourth.cumulativeLoss.unplayedPackets == 2)
    }

    @Test func emptyIntervalsReportZeroLossAndFiniteNumbers() throws {
        var monitor = Self.monitor()
        let empty = monitor.makeReport(now: Self.start)
        let again = monitor.makeReport(now: Self.start)
        for report in [empty, again] {
            #expect(report.intervalSeconds == 0)
            #expect(report.intervalLoss == LossFigures(expectedPackets: 0, lostPackets: 0, unplayedPackets: 0))
            #expect(report.cumulativeLoss.effectiveLossPercent == 0)
            #expect(report.concealmentPercent == 0 && report.burstRatio == 1 && report.ratedLossPercent == 0)
            #expect(report.burstDensity == 0 && report.gapDensity == 0 && report.gapDurationMilliseconds == 0)
            #expect(try #require(report.meanOpinionScore).isFinite)
        }
        // Late packets counted by the buffer with nothing expected: still no division by zero.
        var playout = PlayoutFigures.zero
        playout.latePackets = 3
        monitor.update(playout: playout)
        #expect(monitor.makeReport(now: Self.at(1)).intervalLoss.effectiveLossPercent == 0)
    }

    @Test func lossFiguresClampHostileCounts() {
        let figures = LossFigures(expectedPackets: 10, lostPackets: 25, unplayedPackets: 40)
        #expect(figures.lostPackets == 10 && figures.networkLossPercent == 100 && figures.effectiveLossPercent == 100)
        let negative = LossFigures(expectedPackets: -5, lostPackets: -3, unplayedPackets: -1)
        #expect(negative == LossFigures(expectedPackets: 0, lostPackets: 0, unplayedPackets: 0))
    }

    @Test func concealmentAndPlayoutResets() {
        var monitor = Self.monitor()
        monitor.update(
            playout: .init(
                currentDelayMilliseconds: 30, targetDelayMilliseconds: 40, latePackets: 0,
                discardedPackets: 0, concealedSamples: 400, playedSamples: 8000, interruptions: 2))
        let first = monitor.makeReport(now: Self.at(1))
        #expect(first.concealmentPercent == 5)
        #expect(first.latency.jitterBufferMilliseconds == 30 && first.latency.jitterBufferTargetMilliseconds == 40)
        // The buffer restarted: its counters start again from zero.
        monitor.update(
            playout: .init(
                currentDelayMilliseconds: 20, targetDelayMilliseconds: 20, latePackets: 1,
                discardedPackets: 0, concealedSamples: 80, playedSamples: 800, interruptions: 1))
        let second = monitor.makeReport(now: Self.at(2))
        #expect(second.concealmentPercent == 10)
        #expect(second.intervalLoss.unplayedPackets == 1 && second.interruptions == 3)
    }

    @Test func roundTripFromTheRFC3550Example() throws {
        // RFC 3550 §6.4.1: our SR carried NTP 46853.125 s (LSR 0xb705:2000); the far end held
        // it 5.250 s (DLSR 0x0005:4000); its report arrived at 46864.500 s (0xb710:8000), that
        // is 11.375 s after our SR left. RTT = 6.125 s.
        var monitor = Self.monitor()
        let sent = Self.at(3)
        monitor.recordSentTimestamp(NTPTimestamp(rawValue: UInt64(0xB705_2000) << 16), at: sent)
        monitor.recordSentTimestamp(NTPTimestamp(rawValue: UInt64(0xB706_0000) << 16), at: sent + MediaTime(seconds: 5))
        #expect(monitor.makeReport(now: Self.at(4)).roundTripMilliseconds == nil)

        let block = RTCPReportBlock(
            ssrc: 0x1234, fractionLost: 64, cumulativeLost: 7, extendedHighestSequence: 1000, jitter: 80,
            lastSenderReport: 0xB705_2000, delaySinceLastSenderReport: 0x0005_4000)
        monitor.recordRemoteReport(block, arrival: sent + MediaTime(seconds: 11.375))
        let report = monitor.makeReport(now: Self.at(15))
        #expect(report.roundTripMilliseconds == 6125)
        #expect(report.latency.networkMilliseconds == 3062.5)
        #expect(report.latency.totalMilliseconds == 3062.5 + 20)
        // What the far end says about our stream: 64/256 lost, 80 units of 8 kHz jitter.
        let remote = try #require(report.remote)
        #expect(remote.fractionLostPercent == 25 && remote.cumulativeLost == 7 && remote.jitterMilliseconds == 10)
        #expect(remote.discardPercent == nil && remote.conversationalMOS == nil)
    }

    @Test func theOneWayEstimateTakesTheFastestOfTheLatestRoundTrips() {
        // Each report echoes its own SR, sent 1 s before and held 0 s by the far end, so the
        // round trip is the arrival's offset: 100 ms, then 60 ms, then eight of 100 ms.
        var monitor = Self.monitor()
        func echo(roundTripMilliseconds: Double, sentAt seconds: Double) {
            let middle = UInt32(0x1000_0000) + UInt32(seconds)
            monitor.recordSentTimestamp(NTPTimestamp(rawValue: UInt64(middle) << 16), at: Self.at(seconds))
            let block = RTCPReportBlock(
                ssrc: 0x1234, fractionLost: 0, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0,
                lastSenderReport: middle, delaySinceLastSenderReport: 0)
            monitor.recordRemoteReport(block, arrival: Self.at(seconds) + MediaTime(seconds: roundTripMilliseconds / 1000))
        }
        echo(roundTripMilliseconds: 100, sentAt: 1)
        #expect(monitor.makeReport(now: Self.at(2)).latency.networkMilliseconds == 50)
        echo(roundTripMilliseconds: 60, sentAt: 2)
        let afterFast = monitor.makeReport(now: Self.at(3))
        #expect(afterFast.roundTripMilliseconds == 60 && afterFast.latency.networkMilliseconds == 30)
        // A slow report after the fast one: the latest RTT is shown, the queueing it holds is not
        // added to the one-way estimate (the jitter buffer's delay holds it).
        echo(roundTripMilliseconds: 100, sentAt: 3)
        let afterSlow = monitor.makeReport(now: Self.at(4))
        #expect(afterSlow.roundTripMilliseconds == 100 && afterSlow.latency.networkMilliseconds == 30)
        // Eight slow ones in a row push the fast one out: the path has slowed for good.
        for second in 4..<11 { echo(roundTripMilliseconds: 100, sentAt: Double(second)) }
        #expect(monitor.makeReport(now: Self.at(12)).latency.networkMilliseconds == 50)
    }

    @Test func roundTripIgnoresEchoesOfUnknownReportsAndKeepsTheLatest() {
        var monitor = Self.monitor()
        monitor.recordSentTimestamp(NTPTimestamp(rawValue: UInt64(0x0001_0000) << 16), at: Self.at(1))
        // No LSR, an LSR we never sent, and one that would make the round trip negative.
        for (lsr, dlsr) in [(UInt32(0), UInt32(0)), (0x0002_0000, 0), (0x0001_0000, 0x0100_0000)] {
            monitor.recordRemoteReport(
                RTCPReportBlock(
                    ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0,
                    lastSenderReport: lsr, delaySinceLastSenderReport: dlsr),
                arrival: Self.at(2))
        }
        #expect(monitor.makeReport(now: Self.at(2)).roundTripMilliseconds == nil)
        // An XR DLRR echo of the same timestamp: 1 s after it left, held 0.5 s (0x8000 units).
        monitor.recordRemoteReferenceReply(
            RTCPDLRRItem(ssrc: 9, lastReceiverReport: 0x0001_0000, delaySinceLastReceiverReport: 0x8000),
            arrival: Self.at(2))
        #expect(monitor.makeReport(now: Self.at(3)).roundTripMilliseconds == 500)
    }

    @Test func remoteVoIPMetricsAreReported() throws {
        var monitor = Self.monitor()
        var metrics = VoIPMetrics()
        metrics.discardFraction = 0.25
        metrics.conversationalMOS = 3.9
        monitor.recordRemoteMetrics(metrics)
        let remote = try #require(monitor.makeReport(now: Self.at(1)).remote)
        #expect(remote.discardPercent == 25 && remote.conversationalMOS == 3.9)
        #expect(remote.fractionLostPercent == nil)
    }

    @Test func fateCountsAreBoundedAndNextReportTimeFollowsTheInterval() {
        var monitor = Self.monitor()
        monitor.record(.received, count: 20)
        monitor.record(.lost, count: -4)
        monitor.record(.lost, count: .max)
        monitor.record(.received)
        let report = monitor.makeReport(now: Self.at(1))
        // The negative count records nothing; the huge one 65 536 losses: one burst after a
        // gap of 20 received (c13 = 1, c11 = 20), then one received packet.
        #expect(report.burstDensity == 1)
        #expect(report.gapDurationMilliseconds == 21 * 20)
        #expect(monitor.nextReportTime == Self.at(2))
    }
}

/// The fates ``QualityMonitor/recordArrival(_:)`` infers from real reception statistics.
@Suite("QualityMonitor arrival fates")
struct MonitorArrivalTests {
    @Test func gapsBecomeLossesAndReorderedOrDuplicatePacketsRecordNothing() throws {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 2)
        var monitor = QualityMonitor(codec: ScriptedCall.pcmu, start: .zero)
        // 65534 and 65535 pass probation; 2 follows after the wrap, skipping 0 and 1;
        // 1 comes late (reordered), 2 again (duplicate); then 3.
        for (index, sequence) in [UInt16(65534), 65535, 2, 1, 2, 3].enumerated() {
            statistics.record(
                sequence: SequenceNumber(sequence), timestamp: RTPTimestamp(UInt32(index) * 160),
                arrival: .milliseconds(Double(index) * 20))
            monitor.recordArrival(ReceptionCounters(statistics))
        }
        let report = monitor.makeReport(now: MediaTime(seconds: 1))
        // Fates R L L R R: 65535 (the first counted), 0 and 1 lost, 2, 3.
        #expect(report.cumulativeLoss.expectedPackets == 5)
        #expect(report.cumulativeLoss.lostPackets == 1, "1 arrived late, so only 0 is lost for RFC 3550")
        // BurstR of R L L R R: p = 1/2 (found→lost once; 2 found packets have a successor),
        // q = 1/2 (lost→found once; 2 lost packets have a successor); 1 / (1/2 + 1/2) = 1.
        // Had the late packet 1 been recorded as received (R L R R R), p = 1/3, q = 1: 0.75.
        let losses = [false, true, true, false, false]
        #expect(abs(report.burstRatio - (try #require(BurstRatio.estimate(fromLosses: losses)))) < 1e-12)
        #expect(report.burstRatio == 1)
    }
}
