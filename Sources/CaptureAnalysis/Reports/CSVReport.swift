import QualityMetrics
import PlayoutLab
import Foundation

extension AnalysisReport {
    /// The columns of ``csv()``, in order.
    public static let csvColumns = [
        "file", "ssrc", "source_address", "source_port", "destination_address", "destination_port", "codec",
        "packets", "expected", "lost", "loss_percent", "duplicates", "out_of_order", "jitter_ms",
        "ws_lost", "ws_delta_ms_min", "ws_delta_ms_mean", "ws_delta_ms_max",
        "ws_jitter_ms_min", "ws_jitter_ms_mean", "ws_jitter_ms_max", "ws_problems",
        "burst_density", "gap_density", "rtt_ms", "dtmf_events", "r_factor", "mos_cqe",
        "jb_mean_delay_ms", "jb_p50_delay_ms", "jb_p95_delay_ms", "jb_p99_delay_ms", "jb_network_loss_percent",
        "jb_late_loss_percent", "jb_effective_loss_percent", "jb_concealment_percent", "jb_concealment_events",
        "jb_interruptions", "jb_time_stretch_percent", "jb_audio_decoded",
    ]

    /// One CSV row per stream (RFC 4180 quoting), after a header row of ``csvColumns``;
    /// unknown values are empty fields.
    public func csv() -> String {
        var lines = [Self.csvColumns.joined(separator: ",")]
        for file in files {
            for stream in file.streams {
                let fields: [String] =
                    [
                        file.path, stream.key.ssrcHex, stream.key.source.address.description, String(stream.key.source.port),
                        stream.key.destination.address.description, String(stream.key.destination.port),
                        stream.codec ?? "", String(stream.packets), String(stream.expected), String(stream.lost),
                        stream.lossPercent.formatted(decimals: 3), String(stream.duplicates), String(stream.outOfOrder),
                        stream.jitterMilliseconds.map { $0.formatted(decimals: 3) } ?? "",
                        String(stream.wireshark.lost),
                        stream.wireshark.delta.minimum.formatted(decimals: 3), stream.wireshark.delta.mean.formatted(decimals: 3),
                        stream.wireshark.delta.maximum.formatted(decimals: 3),
                        stream.wireshark.jitter.minimum.formatted(decimals: 3), stream.wireshark.jitter.mean.formatted(decimals: 3),
                        stream.wireshark.jitter.maximum.formatted(decimals: 3), stream.wireshark.problems ? "1" : "0",
                        stream.burstGap.metrics.burstDensity.formatted(decimals: 4),
                        stream.burstGap.metrics.gapDensity.formatted(decimals: 4),
                        stream.roundTripMilliseconds.map { $0.formatted(decimals: 3) } ?? "",
                        stream.dtmfEvents.map(\.key).joined(),
                        stream.quality.map { $0.rFactor.formatted(decimals: 2) } ?? "",
                        stream.quality.map { $0.meanOpinionScore.formatted(decimals: 2) } ?? "",
                    ] + Self.csvFields(stream.jitterBuffer)
                lines.append(fields.map(Self.csvField).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `jb_…` columns: empty fields for a stream that was not replayed.
    private static func csvFields(_ report: JitterBufferReport?) -> [String] {
        guard let report else { return [String](repeating: "", count: 12) }
        return [
            report.meanDelayMilliseconds, report.p50DelayMilliseconds, report.p95DelayMilliseconds,
            report.p99DelayMilliseconds, report.networkLossPercent, report.lateLossPercent, report.effectiveLossPercent,
            report.concealmentPercent,
        ].map { $0.formatted(decimals: 3) } + [
            String(report.concealmentEvents), String(report.interruptions), report.timeStretchPercent.formatted(decimals: 3),
            report.audioDecoded ? "1" : "0",
        ]
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
