import QualityMetrics
import PlayoutLab
extension AnalysisReport {
    /// A readable report: per file, what was read and found; per stream, its figures in
    /// labelled lines.
    public func text() -> String {
        var output = ""
        for file in files {
            output += "\(file.path): \(file.framesRead) frames, \(file.datagrams)\n"
            if let error = file.error { output += "  warning: \(error)\n" }
            if let explanation = file.noStreamsExplanation { output += "  \(explanation)\n" }
            for stream in file.streams { output += Self.text(stream) }
        }
        return output
    }

    /// `R 93.2, MOS 4.41 (g711-plc, narrowband, Ppl 0.50 %, Ta 120.0 ms = 30.0 + 70.0 + 20.0 + 0.0)`.
    private static func rating(_ quality: QualityEstimate) -> String {
        "R \(quality.rFactor.formatted(decimals: 1)), MOS \(quality.meanOpinionScore.formatted(decimals: 2)) "
            + "(\(quality.codecKey), \(quality.bandwidth), Ppl \(quality.packetLossPercent.formatted(decimals: 2)) %, "
            + "Ta \(quality.oneWayDelayMilliseconds.formatted(decimals: 1)) ms = network \(quality.networkOneWayMilliseconds.formatted(decimals: 1))"
            + " + playout \(quality.playoutDelayMilliseconds.formatted(decimals: 1)) + packet \(quality.packetisationMilliseconds.formatted(decimals: 1))"
            + " + codec \(quality.codecDelayMilliseconds.formatted(decimals: 1)))"
    }

    private static func text(_ stream: StreamReport) -> String {
        func ms(_ value: Double?) -> String { value.map { $0.formatted(decimals: 3) + " ms" } ?? "-" }
        let wireshark = stream.wireshark
        var lines = [
            "",
            "  Stream \(stream.key) (found by \(stream.foundBy.rawValue), first frame \(stream.firstFrame))",
            "    codec        \(stream.codec ?? "unknown") PT \(stream.payloadTypes.map(String.init).joined(separator: ","))"
                + (stream.clockRateHertz.map { " at \($0) Hz" } ?? "")
                + (stream.encodingNames.count > 1 ? " (\(stream.encodingNames.joined(separator: ", ")))" : "")
                + (stream.srtpSuite.map { ", SRTP \($0)" } ?? ""),
            "    duration     \(stream.durationSeconds.formatted(decimals: 3)) s",
            "    packets      \(stream.packets) received, \(stream.expected) expected, \(stream.lost) lost "
                + "(\(stream.lossPercent.formatted(decimals: 2)) %), \(stream.duplicates) duplicates, "
                + "\(stream.outOfOrder) out of order",
            "    jitter       \(ms(stream.jitterMilliseconds)) (RFC 3550, final)",
            "    wireshark    lost \(wireshark.lost) (\(wireshark.lostPercent.formatted(decimals: 1)) %), delta "
                + "\(wireshark.delta.minimum.formatted(decimals: 3))/\(wireshark.delta.mean.formatted(decimals: 3))/"
                + "\(wireshark.delta.maximum.formatted(decimals: 3)) ms, jitter "
                + "\(wireshark.jitter.minimum.formatted(decimals: 3))/\(wireshark.jitter.mean.formatted(decimals: 3))/"
                + "\(wireshark.jitter.maximum.formatted(decimals: 3)) ms (min/mean/max)"
                + (wireshark.problems ? ", problems" : ""),
            "    burst/gap    burst density \(stream.burstGap.metrics.burstDensity.formatted(decimals: 3)), gap density "
                + "\(stream.burstGap.metrics.gapDensity.formatted(decimals: 3)), burst ratio "
                + (stream.burstGap.burstRatio.map { $0.formatted(decimals: 2) } ?? "-"),
        ]
        if let rtcp = stream.rtcp {
            var line = "    rtcp         \(rtcp.senderReports) SR, \(rtcp.receptionReports) report blocks"
            if rtcp.roundTripMilliseconds.count > 0 {
                let rtt = rtcp.roundTripMilliseconds
                line +=
                    ", RTT \(rtt.minimum.formatted(decimals: 3))/\(rtt.mean.formatted(decimals: 3))/"
                    + "\(rtt.maximum.formatted(decimals: 3)) ms (\(rtt.count))"
            }
            if let lost = rtcp.lastCumulativeLost, let fraction = rtcp.lastFractionLostPercent {
                line +=
                    "; far end: lost \(lost), fraction \(fraction.formatted(decimals: 1)) %, jitter "
                    + ms(stream.farEndJitterMilliseconds)
            }
            lines.append(line)
        }
        if stream.capturePointRoundTripMilliseconds != nil || stream.reverseCapturePointRoundTripMilliseconds != nil {
            lines.append(
                "    path rtt     \(ms(stream.roundTripMilliseconds)) mean, \(ms(stream.roundTripMinimumMilliseconds)) min (capture point: this SSRC "
                    + "\(ms(stream.capturePointRoundTripMilliseconds)), reverse direction \(ms(stream.reverseCapturePointRoundTripMilliseconds)))")
        }
        if let srtp = stream.srtp {
            lines.append(
                "    srtp         \(srtp.suite) key from \(srtp.keySource.rawValue): \(srtp.decrypted) decrypted, "
                    + "\(srtp.authenticationFailures) authentication failures, \(srtp.replays) replays, \(srtp.otherFailures) other")
        }
        if let reason = stream.audioReason {
            lines.append("    audio        not decoded: \(reason)")
        }
        if !stream.dtmfEvents.isEmpty {
            lines.append(
                "    dtmf         "
                    + stream.dtmfEvents.map { event in
                        "\(event.key) at \(event.startSeconds.formatted(decimals: 2)) s (\(event.durationMilliseconds.formatted(decimals: 0)) ms)"
                    }.joined(separator: ", "))
        }
        if let buffer = stream.jitterBuffer {
            lines.append(
                "    our buffer   delay \(buffer.meanDelayMilliseconds.formatted(decimals: 1))/"
                    + "\(buffer.p50DelayMilliseconds.formatted(decimals: 1))/\(buffer.p95DelayMilliseconds.formatted(decimals: 1))/"
                    + "\(buffer.p99DelayMilliseconds.formatted(decimals: 1)) ms (mean/p50/p95/p99), loss "
                    + "\(buffer.effectiveLossPercent.formatted(decimals: 2)) % (late \(buffer.lateLossPercent.formatted(decimals: 2)) %), "
                    + "concealment \(buffer.concealmentPercent.formatted(decimals: 2)) % in \(buffer.concealmentEvents) events, "
                    + "\(buffer.interruptions) interruptions, stretch \(buffer.timeStretchPercent.formatted(decimals: 2)) %"
                    + (buffer.audioDecoded ? "" : " (codec not decoded: no audio)"))
        }
        if let wav = stream.listenerWAV {
            lines.append("    wav          " + (wav.path ?? "-") + (wav.skippedReason.map { " (\($0))" } ?? ""))
        }
        if let quality = stream.quality {
            lines.append("    quality      " + Self.rating(quality) + (stream.jitterBuffer == nil ? " from network figures" : " as heard"))
            lines.append(
                "                 Ie \(quality.equipmentImpairment.formatted(decimals: 2)), Bpl "
                    + "\(quality.packetLossRobustness.formatted(decimals: 2)): \(quality.impairmentSource)")
        } else {
            lines.append("    quality      - (no E-model values for this codec)")
        }
        if let network = stream.networkQuality, stream.jitterBuffer != nil {
            lines.append("    network      " + Self.rating(network))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
