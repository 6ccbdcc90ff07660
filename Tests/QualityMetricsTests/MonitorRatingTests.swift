import QualityMetrics
import RTP
import Testing

/// The monitor's E-model rating on scripted calls, each expectation computed independently
/// with ``EModel`` from the inputs the script produced.
@Suite("QualityMonitor rating")
struct MonitorRatingTests {
    @Test func cleanG711StreamRatesNearTheCodecMaximum() throws {
        var call = ScriptedCall(jitterBufferMilliseconds: 40)
        call.play(Array(repeating: false, count: 250))
        #expect(call.reports.count == 5)
        let last = try #require(call.reports.last)
        // Ta = 40 ms buffer + 20 ms packet (no RTT yet): Idd = 0, so R is G.107's default
        // 93.2 and MOS-CQE(93.2) = 4.41 (eq. B-4).
        #expect(last.latency.totalMilliseconds == 60)
        #expect(last.latency.networkMilliseconds == nil)
        #expect(abs(try #require(last.rFactor) - 93.2) < 0.05)
        #expect(abs(try #require(last.meanOpinionScore) - 4.41) < 0.005)
        #expect(last.level == .excellent)
        #expect(last.intervalLoss.expectedPackets == 50 && last.intervalLoss.lostPackets == 0)
        #expect(last.cumulativeLoss.expectedPackets == 250)
        #expect(last.burstRatio == 1 && last.ratedLossPercent == 0)
        #expect(last.jitterMilliseconds == 0)
    }

    @Test func randomLossLowersMOSAsTheEModelSays() throws {
        let losses = ScriptedCall.randomLosses(count: 250, percent: 5, seed: 7)
        var call = ScriptedCall()
        call.play(losses)
        let last = try #require(call.reports.last)
        // The default rating window is 5 intervals: the whole call.
        let lost = losses.filter { $0 }.count
        let lossPercent = Double(lost) / 250 * 100
        #expect((3.0...7.0).contains(lossPercent))
        let burstRatio = try #require(BurstRatio.estimate(fromLosses: losses))
        let expected = try ScriptedCall.expectedRating(lossPercent: lossPercent, burstRatio: burstRatio, delayMilliseconds: 60)
        #expect(abs(last.ratedLossPercent - lossPercent) < 1e-9)
        #expect(abs(last.burstRatio - burstRatio) < 1e-9)
        #expect(abs(try #require(last.rFactor) - expected.rFactor) < 1e-9)
        #expect(abs(try #require(last.meanOpinionScore) - expected.conversationalMOS) < 1e-9)
        #expect(try #require(last.meanOpinionScore) < 4.2)
        #expect(last.cumulativeLoss.lostPackets == Int64(lost))
    }

    @Test func burstyLossHurtsMoreThanRandomLossAtTheSameRate() throws {
        let random = ScriptedCall.randomLosses(count: 250, percent: 5, seed: 7)
        let lost = random.filter { $0 }.count
        // The same number of losses in bursts of 4, one burst every 40 packets, the first after
        // more than Gmin received packets.
        var bursty = Array(repeating: false, count: 250)
        for index in 0..<lost { bursty[20 + (index / 4) * 40 + index % 4] = true }

        var randomCall = ScriptedCall()
        randomCall.play(random)
        var burstyCall = ScriptedCall()
        burstyCall.play(bursty)
        let randomReport = try #require(randomCall.reports.last)
        let burstyReport = try #require(burstyCall.reports.last)

        #expect(burstyReport.ratedLossPercent == randomReport.ratedLossPercent)
        #expect(burstyReport.burstRatio > 1)
        #expect(abs(burstyReport.burstRatio - (try #require(BurstRatio.estimate(fromLosses: bursty)))) < 1e-9)
        #expect(try #require(burstyReport.meanOpinionScore) < (try #require(randomReport.meanOpinionScore)))
        // RFC 3611: the bursts are dense, the gaps between them loss-free, and a burst lasts
        // the losses over the bursts (the last one may hold fewer than 4) times 20 ms.
        #expect(burstyReport.burstDensity == 1)
        #expect(burstyReport.gapDensity == 0)
        #expect(burstyReport.burstDurationMilliseconds == Double(lost) * 20 / Double((lost + 3) / 4))
    }

    @Test func ratingWindowOfOneIntervalRatesEachSecondAlone() throws {
        var configuration = QualityMonitor.Configuration()
        configuration.ratingWindowIntervals = 1
        var call = ScriptedCall(configuration: configuration)
        var losses = Array(repeating: false, count: 150)
        losses[60] = true
        losses[61] = true
        call.play(losses)
        // Second 2 lost 2 of 50 packets; seconds 1 and 3 none.
        #expect(call.reports.map(\.ratedLossPercent) == [0, 4, 0])
        #expect(call.reports.map(\.intervalLoss.networkLossPercent) == [0, 4, 0])
        #expect(call.reports[2].meanOpinionScore == call.reports[0].meanOpinionScore)
    }

    @Test func latePacketsCountInTheEffectiveLossAndTheRating() throws {
        var call = ScriptedCall()
        call.play(Array(repeating: false, count: 50))
        var playout = PlayoutFigures.zero
        (playout.currentDelayMilliseconds, playout.latePackets, playout.discardedPackets) = (40, 2, 1)
        call.monitor.update(playout: playout)
        call.play(Array(repeating: false, count: 50))
        let second = call.reports[1]
        #expect(second.intervalLoss.networkLossPercent == 0)
        #expect(second.intervalLoss.unplayedPackets == 3)
        #expect(second.intervalLoss.effectiveLossPercent == 6)
        // The window holds both seconds: 3 of 100.
        #expect(second.ratedLossPercent == 3)
        let expected = try ScriptedCall.expectedRating(lossPercent: 3, burstRatio: 1, delayMilliseconds: 60)
        #expect(abs(try #require(second.meanOpinionScore) - expected.conversationalMOS) < 1e-9)
    }

    @Test func codecWithoutTraceableValuesHasNoMOS() throws {
        let g729e = MonitoredCodec(
            encodingName: "G729E", clockRate: 8000, packetDurationMilliseconds: 20, algorithmicDelayMilliseconds: 5)
        var call = ScriptedCall(codec: g729e)
        call.play(Array(repeating: false, count: 50))
        let report = try #require(call.reports.first)
        #expect(report.meanOpinionScore == nil && report.rFactor == nil && report.level == nil)
        #expect(report.latency.totalMilliseconds == 65)
        #expect(report.description.contains("MOS - R -"))
    }

    /// Opus is rated on G.107.1's wideband scale with the Ie,wb and Bpl,wb of the bitrate band
    /// it is received at; the values below are typed from `docs/opus-iewb.json` (the output of
    /// `scripts/derive-wideband-iewb.py opus`), not read from the code under test.
    @Test(arguments: [(Int64(80), 12.19, 5.1), (Int64(40), 39.55, 7.5), (Int64(120), 0.0, 4.3)])
    func opusIsRatedWithTheWidebandValuesOfItsReceivedBitrate(octetsPerPacket: Int64, ie: Double, bpl: Double) throws {
        let opus = MonitoredCodec(
            encodingName: "opus", clockRate: 48000, packetDurationMilliseconds: 20, algorithmicDelayMilliseconds: 6.5)
        let losses = ScriptedCall.randomLosses(count: 250, percent: 3, seed: 11)
        var call = ScriptedCall(codec: opus, payloadOctetsPerPacket: octetsPerPacket)
        call.play(losses)
        let last = try #require(call.reports.last)
        var parameters = EModelParameters()
        parameters.packetLossPercent = last.ratedLossPercent
        parameters.burstRatio = last.burstRatio
        parameters.absoluteDelayMilliseconds = 66.5
        let derived = CodecImpairment(
            key: "opus-test", name: "Opus", bandwidth: .wideband, equipmentImpairment: ie, packetLossRobustness: bpl,
            packetDurationMilliseconds: 20, source: "docs/opus-iewb.json")
        let expected = try EModel.evaluate(parameters.applying(derived))
        #expect(last.ratedLossPercent > 0)
        #expect(abs(try #require(last.rFactor) - expected.rFactor) < 1e-9)
        #expect(abs(try #require(last.meanOpinionScore) - expected.conversationalMOS) < 1e-9)
    }

    @Test func levelsFollowTheDocumentedThresholds() {
        #expect(QualityLevel(meanOpinionScore: MeanOpinionScore.fromRFactor(93.2)) == .excellent)
        #expect(QualityLevel(meanOpinionScore: 4.3) == .excellent)
        #expect(QualityLevel(meanOpinionScore: 4.29) == .good)
        #expect(QualityLevel(meanOpinionScore: 4.0) == .good)
        #expect(QualityLevel(meanOpinionScore: 3.99) == .fair)
        #expect(QualityLevel(meanOpinionScore: 3.6) == .fair)
        #expect(QualityLevel(meanOpinionScore: 3.1) == .poor)
        #expect(QualityLevel(meanOpinionScore: 3.09) == .bad)
        #expect(QualityLevel(meanOpinionScore: .nan) == .bad)
        // The thresholds are MOS-CQE at R = 90, 80, 70, 60, rounded to one decimal.
        let atR = [90.0, 80, 70, 60].map { MeanOpinionScore.fromRFactor($0) }
        #expect(zip(atR, [4.3, 4.0, 3.6, 3.1]).allSatisfy { abs($0 - $1) < 0.05 })
        #expect(QualityLevel.bad < .poor && QualityLevel.good < .excellent)
    }
}
