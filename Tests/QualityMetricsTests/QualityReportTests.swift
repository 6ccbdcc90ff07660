import Foundation
import QualityMetrics
import RTP
import Testing

/// The text line and the JSON form of ``QualityReport``.
@Suite("QualityReport renderings")
struct QualityReportTests {
    /// A report with round figures: RTT 12 ms, 3.1 ms jitter, a 48 ms buffer, 1 of 200 packets
    /// lost and 1 late.
    static func report() -> QualityReport {
        let start = MediaTime(seconds: 100)
        var monitor = QualityMonitor(codec: ScriptedCall.pcmu, start: start)
        monitor.update(reception: .init(expectedPackets: 200, receivedPackets: 199, duplicatePackets: 0, jitterMilliseconds: 3.1))
        var playout = PlayoutFigures.zero
        (playout.currentDelayMilliseconds, playout.latePackets) = (48, 1)
        monitor.update(playout: playout)
        monitor.recordSentTimestamp(NTPTimestamp(rawValue: 0x1234_5678_9ABC_DEF0), at: start)
        monitor.recordRemoteReport(
            RTCPReportBlock(
                ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0,
                lastSenderReport: 0x5678_9ABC, delaySinceLastSenderReport: 0),
            arrival: start + .milliseconds(12))
        return monitor.makeReport(now: start + MediaTime(seconds: 3))
    }

    @Test func oneLineForTheConsole() throws {
        let report = Self.report()
        let mos = try #require(report.meanOpinionScore)
        let r = try #require(report.rFactor)
        // Latency 6 (RTT/2) + 48 + 0 + 20 = 74 ms.
        #expect(
            report.description == "t=3s MOS \(String(format: "%.2f", mos)) R \(String(format: "%.1f", r)) "
                + "jitter 3.1 ms latency 74 ms loss 0.5 % (after JB 1.0 %) rtt 12 ms")
    }

    @Test func jsonKeysAreSnakeCaseWithUnits() throws {
        let report = Self.report()
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys).isSuperset(of: [
                "timestamp_s", "elapsed_s", "interval_s", "codec", "mos", "r_factor", "level", "rated_loss_percent",
                "burst_ratio", "jitter_ms", "latency", "rtt_ms", "interval_loss", "cumulative_loss",
                "concealment_percent", "interruptions", "burst_density", "gap_density", "burst_duration_ms",
                "gap_duration_ms", "remote",
            ]))
        let loss = try #require(object["interval_loss"] as? [String: Any])
        #expect(loss["effective_loss_percent"] as? Double == 1)
        #expect(loss["late_or_discarded"] as? Int == 1)
        let latency = try #require(object["latency"] as? [String: Any])
        #expect(latency["total_ms"] as? Double == 74 && latency["network_ms"] as? Double == 6)
        #expect(object["level"] as? String == report.level?.rawValue)
        #expect(try JSONDecoder().decode(QualityReport.self, from: data) == report)
    }

    @Test func unknownValuesAreLeftOut() throws {
        var monitor = QualityMonitor(codec: ScriptedCall.pcmu, start: .zero)
        let report = monitor.makeReport(now: MediaTime(seconds: 1))
        #expect(report.description.hasSuffix("rtt -"))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(object["rtt_ms"] == nil && object["remote"] == nil)
    }

    @Test func hostileFiguresStillEncode() throws {
        var codec = ScriptedCall.pcmu
        codec.clockRate = 0
        codec.packetDurationMilliseconds = .nan
        var monitor = QualityMonitor(codec: codec, start: .zero)
        monitor.update(
            reception: .init(
                expectedPackets: -3, receivedPackets: .max, duplicatePackets: .min,
                jitterMilliseconds: .infinity))
        monitor.update(
            playout: .init(
                currentDelayMilliseconds: .nan, targetDelayMilliseconds: -.infinity, latePackets: -1,
                discardedPackets: .max, concealedSamples: -5, playedSamples: 0, interruptions: -2))
        monitor.recordRemoteReport(
            RTCPReportBlock(
                ssrc: 1, fractionLost: 255, cumulativeLost: -1, extendedHighestSequence: 0, jitter: .max,
                lastSenderReport: 0, delaySinceLastSenderReport: 0),
            arrival: .zero)
        let report = monitor.makeReport(now: MediaTime(seconds: 1))
        #expect(report.latency.totalMilliseconds == 0 && report.jitterMilliseconds == 0)
        _ = try JSONEncoder().encode(report)
        _ = report.description
    }
}
