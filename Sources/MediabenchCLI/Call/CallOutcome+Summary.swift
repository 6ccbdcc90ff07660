import Foundation

extension CallOutcome {
    /// The summary printed after the quality lines.
    var summary: String {
        func format(_ value: Double, _ decimals: Int = 1) -> String { String(format: "%.\(decimals)f", value) }
        let forward = relay[RelayDirection.callerToCallee.rawValue]
        let final = reports.last?.quality
        let scores = reports.compactMap(\.quality.meanOpinionScore)
        let mos =
            scores.isEmpty
            ? "- (the quality monitor has no E-model rating for \(settings.codec) here)"
            : "\(format(scores.reduce(0, +) / Double(scores.count), 2)) mean, \(format(scores.min() ?? 0, 2)) lowest"
        let playout = reports.last?.jitterBuffer
        let concealment = playout.map { $0.playedSamples == 0 ? 0 : Double($0.concealedSamples) * 100 / Double($0.playedSamples) } ?? 0
        let budget = delayBudget
        let delay =
            mouthToEar.map {
                """
                \(format($0.medianMilliseconds)) ms median (\(format($0.range.lowerBound))–\(format($0.range.upperBound)) ms over \
                \($0.windows) of \($0.windowsTried) one-second windows, waveform correlation \(format($0.correlation, 2)))
                                 reported parts: network \(format(budget.network)) (fastest packet) + jitter buffer \
                \(format(budget.jitterBufferMean)) (mean; largest \(format(budget.jitterBufferMaximum))) + codec \
                \(format(budget.codec)) + packetisation \(format(budget.packetisation)) = \(format(budget.total)) ms
                """
            } ?? "not found (the received audio does not match what was sent)"
        let dtmf =
            settings.dtmf.isEmpty
            ? "none sent" : "sent \(settings.dtmf), received \(dtmfReceived.isEmpty ? "nothing" : dtmfReceived)"
        return """

            summary (what the callee heard)
              packets        caller sent \(caller.rtpPacketsSent) RTP; the network lost \(forward.rtpDropped) and \
            duplicated \(forward.rtpDelivered + forward.rtpDropped - forward.rtpReceived); callee accepted \(callee.rtpPacketsReceived)
              loss           network \(format(final?.cumulativeLoss.networkLossPercent ?? 0)) %, after the jitter buffer \
            \(format(final?.cumulativeLoss.effectiveLossPercent ?? 0)) %, concealment \(format(concealment)) %
              jitter         \(format(callee.jitterMilliseconds)) ms (RFC 3550)
              this host      \(hostTiming(forward))
              MOS            \(mos)
              DTMF           \(dtmf)
              mouth-to-ear   \(delay)

            """
    }

    /// What this machine's scheduling added to the caller's RTP around the network model's
    /// delay: jitter the relay did not draw, but that the callee's jitter buffer saw.
    private func hostTiming(_ counts: RelayCounts) -> String {
        let spread = String(format: "%.1f", counts.rtpSendingSpreadMilliseconds)
        let sending = "the caller's RTP reached the relay within \(spread) ms of its RTP clock"
        guard counts.rtpLateDeliveries > 0 else { return sending + "; the relay forwarded every packet on time" }
        let latest = String(format: "%.1f", counts.rtpLatestDeliveryMilliseconds)
        let threshold = String(format: "%.0f", RelayCounts.lateDeliveryMilliseconds)
        return sending + "; the relay woke late for \(counts.rtpLateDeliveries) (\(threshold) ms or more, at most \(latest) ms)"
    }
}
