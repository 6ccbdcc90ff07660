import QualityMetrics

extension VoIPMetrics {
    /// The RFC 3611 VoIP metrics of the stream we receive, from the monitor's latest report
    /// (cumulative loss and discards, burst/gap, round trip, end-system delay, R and MOS,
    /// jitter-buffer delays); signal, noise and echo levels stay unavailable.
    init(report: QualityReport, jitterBufferAbsoluteMaximumMilliseconds: Double) {
        self.init()
        let loss = report.cumulativeLoss
        if loss.expectedPackets > 0 {
            let expected = Double(loss.expectedPackets)
            lossFraction = min(1, Double(loss.lostPackets) / expected)
            discardFraction = min(1, Double(loss.unplayedPackets) / expected)
        }
        burstGap = BurstGapMetrics(
            burstDensity: report.burstDensity, gapDensity: report.gapDensity,
            burstDurationMilliseconds: report.burstDurationMilliseconds, gapDurationMilliseconds: report.gapDurationMilliseconds
        )
        roundTripDelayMilliseconds = report.roundTripMilliseconds
        let latency = report.latency
        endSystemDelayMilliseconds = latency.jitterBufferMilliseconds + latency.codecMilliseconds + latency.packetisationMilliseconds
        // The block's R is on the narrowband scale (0–100).
        rFactor = report.rFactor.map { min($0, 100) }
        conversationalMOS = report.meanOpinionScore
        receiverConfiguration = ReceiverConfiguration(concealment: .enhanced, adaptivity: .adaptive)
        jitterBufferNominalMilliseconds = latency.jitterBufferTargetMilliseconds
        jitterBufferMaximumMilliseconds = max(latency.jitterBufferMilliseconds, latency.jitterBufferTargetMilliseconds)
        self.jitterBufferAbsoluteMaximumMilliseconds = jitterBufferAbsoluteMaximumMilliseconds
    }
}
