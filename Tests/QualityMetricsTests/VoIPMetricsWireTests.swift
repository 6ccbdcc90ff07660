import QualityMetrics
import RTP
import Testing

@Suite("RFC 3611 VoIP Metrics block fields")
struct VoIPMetricsWireTests {
    @Test func encodingAppliesTheRFCScaling() {
        var metrics = VoIPMetrics()
        metrics.lossFraction = 0.05  // 12.8 -> 12
        metrics.discardFraction = 0.999  // 255.7 -> capped at 255
        metrics.burstGap = BurstGapMetrics(
            burstDensity: 1, gapDensity: 1.0 / 41, burstDurationMilliseconds: 20.4, gapDurationMilliseconds: 100_000)
        metrics.roundTripDelayMilliseconds = 123.6
        metrics.signalLevelDB = -20.4
        metrics.noiseLevelDB = -200
        metrics.rFactor = 93.2
        metrics.listeningMOS = 4.41
        metrics.conversationalMOS = 0.5
        metrics.receiverConfiguration = ReceiverConfiguration(concealment: .standard, adaptivity: .adaptive, jitterBufferRate: 5)
        metrics.jitterBufferNominalMilliseconds = 40
        let block = RTCPVoIPMetrics(ssrc: 0xDEAD_BEEF, metrics: metrics)
        #expect(block.ssrc == 0xDEAD_BEEF)
        #expect(block.lossRate == 12 && block.discardRate == 255)
        #expect(block.burstDensity == 255 && block.gapDensity == 6)
        #expect(block.burstDuration == 20 && block.gapDuration == 65535)
        #expect(block.roundTripDelay == 124 && block.endSystemDelay == 0)
        #expect(block.signalLevel == -20 && block.noiseLevel == -128)
        #expect(block.residualEchoReturnLoss == 127, "unavailable")
        #expect(block.gapThreshold == 16)
        #expect(block.rFactor == 93 && block.externalRFactor == 127)
        #expect(block.mosListeningQuality == 44 && block.mosConversationalQuality == 10)
        #expect(block.receiverConfiguration == 0xF5)
        #expect(block.jitterBufferNominal == 40)
    }

    @Test func decodingMapsUnavailableAndUndefinedValuesToNil() {
        let block = RTCPVoIPMetrics(
            ssrc: 1, lossRate: 64, discardRate: 0, burstDensity: 128, gapDensity: 2, burstDuration: 60,
            gapDuration: 420, roundTripDelay: 0, endSystemDelay: 35, signalLevel: 127, noiseLevel: -60,
            residualEchoReturnLoss: 127, gapThreshold: 16, rFactor: 101, externalRFactor: 127,
            mosListeningQuality: 9, mosConversationalQuality: 41, receiverConfiguration: 0x9A, jitterBufferNominal: 20,
            jitterBufferMaximum: 80, jitterBufferAbsoluteMaximum: 200)
        let metrics = VoIPMetrics(block)
        #expect(metrics.lossFraction == 0.25 && metrics.burstGap.burstDensity == 0.5)
        #expect(metrics.burstGap.gapDurationMilliseconds == 420)
        #expect(metrics.roundTripDelayMilliseconds == nil && metrics.endSystemDelayMilliseconds == 35)
        #expect(metrics.signalLevelDB == nil && metrics.noiseLevelDB == -60)
        #expect(metrics.residualEchoReturnLossDB == nil)
        #expect(metrics.rFactor == nil, "101-126 are undefined")
        #expect(metrics.externalRFactor == nil)
        #expect(metrics.listeningMOS == nil && metrics.conversationalMOS == 4.1)
        #expect(metrics.receiverConfiguration == ReceiverConfiguration(concealment: .enhanced, adaptivity: .reserved, jitterBufferRate: 10))
        #expect(metrics.jitterBufferAbsoluteMaximumMilliseconds == 200)
    }

    @Test func representableValuesSurviveARoundTrip() {
        var metrics = VoIPMetrics()
        metrics.lossFraction = 32.0 / 256
        metrics.burstGap = BurstGapMetrics(
            burstDensity: 200.0 / 256, gapDensity: 3.0 / 256, burstDurationMilliseconds: 60, gapDurationMilliseconds: 420)
        metrics.roundTripDelayMilliseconds = 150
        metrics.endSystemDelayMilliseconds = 70
        metrics.signalLevelDB = -18
        metrics.noiseLevelDB = -62
        metrics.residualEchoReturnLossDB = 45
        metrics.minimumGap = 8
        metrics.rFactor = 86
        metrics.externalRFactor = 90
        metrics.listeningMOS = 4.3
        metrics.conversationalMOS = 4.1
        metrics.receiverConfiguration = ReceiverConfiguration(concealment: .disabled, adaptivity: .nonAdaptive)
        (
            metrics.jitterBufferNominalMilliseconds, metrics.jitterBufferMaximumMilliseconds,
            metrics.jitterBufferAbsoluteMaximumMilliseconds
        ) = (40, 120, 300)
        #expect(VoIPMetrics(RTCPVoIPMetrics(ssrc: 7, metrics: metrics)) == metrics)
    }

    @Test func metricsFromTheCounterAndTheEModel() throws {
        var counter = BurstGapCounter()
        for fate in BurstGapCounterTests.fates("20R L R 2L 20R L 20R") { counter.record(fate) }
        var metrics = VoIPMetrics(burstGap: counter, packetDurationMilliseconds: 20)
        var parameters = EModelParameters()
        (parameters.packetLossRobustness, parameters.packetLossPercent) = (25.1, counter.effectiveLossPercent)
        parameters.absoluteDelayMilliseconds = 250
        metrics.setQuality(from: try EModel.evaluate(parameters))
        let block = RTCPVoIPMetrics(ssrc: 1, metrics: metrics)
        #expect(block.lossRate == 15)  // 4 / 65 * 256 = 15.75
        #expect(block.burstDensity == 204 && block.burstDuration == 50 && block.gapDuration == 420)
        let r = try #require(metrics.rFactor)
        #expect(block.rFactor == UInt8(r.rounded()))
        #expect(block.mosListeningQuality > block.mosConversationalQuality, "MOS-LQ leaves out the 250 ms delay")
    }
}
