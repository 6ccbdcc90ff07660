import QualityMetrics
import PlayoutLab
extension AnalysisReport {
    /// One self-contained HTML page: inline CSS, SVG plots drawn here, no script and no
    /// external resource. A summary table of every stream, then per stream its figures and
    /// plots over time of jitter, delta, loss and late events, and MOS.
    public func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(HTMLText.escape(tool.name)) analyze report</title>
            <style>\(Self.styleSheet)</style>
            </head>
            <body>
            <h1>Call-quality report</h1>
            <p class="meta">\(HTMLText.escape(tool.name)) \(HTMLText.escape(tool.version)) · \(files.count) file(s) · \
            \(files.reduce(0) { $0 + $1.streams.count }) RTP stream(s)</p>

            """
        page += summaryTable()
        for file in files {
            page +=
                "<h2>\(HTMLText.escape(file.path))</h2>\n<p class=\"meta\">\(file.framesRead) frames · "
                + "\(HTMLText.escape(file.datagrams.description))</p>\n"
            if let error = file.error { page += "<p class=\"warning\">\(HTMLText.escape(error))</p>\n" }
            if let explanation = file.noStreamsExplanation { page += "<p class=\"warning\">\(HTMLText.escape(explanation))</p>\n" }
            for (index, stream) in file.streams.enumerated() {
                page += Self.section(stream, anchor: Self.anchor(file: file, index: index))
            }
        }
        return page + "</body>\n</html>\n"
    }

    private func summaryTable() -> String {
        var table = """
            <table class="summary">
            <thead><tr><th>Stream</th><th>Codec</th><th>Packets</th><th>Lost</th><th>Loss %</th><th>Dup</th>\
            <th>Jitter ms</th><th>WS delta ms min/mean/max</th><th>WS jitter ms min/mean/max</th><th>RTT ms</th>\
            <th>R</th><th>MOS</th><th>Buffer delay ms p50/p95</th><th>Effective loss %</th><th>Concealment %</th>\
            <th>Interruptions</th></tr></thead>
            <tbody>

            """
        for file in files {
            for (index, stream) in file.streams.enumerated() {
                let ws = stream.wireshark
                let mos = stream.quality?.meanOpinionScore
                table +=
                    "<tr><td><a href=\"#\(Self.anchor(file: file, index: index))\">\(HTMLText.escape("\(stream.key.source) → \(stream.key.destination)"))</a><br>\(stream.key.ssrcHex)</td>"
                    + "<td>\(HTMLText.escape(stream.codec ?? "unknown"))</td><td>\(stream.packets)</td><td>\(stream.lost)</td>"
                    + "<td>\(stream.lossPercent.formatted(decimals: 2))</td><td>\(stream.duplicates)</td>"
                    + "<td>\(Self.optional(stream.jitterMilliseconds, 3))</td>"
                    + "<td>\(Self.triple(ws.delta))</td><td>\(Self.triple(ws.jitter))</td>"
                    + "<td>\(Self.optional(stream.roundTripMilliseconds, 1))</td>"
                    + "<td>\(Self.optional(stream.quality?.rFactor, 1))</td>"
                    + "<td class=\"\(Self.mosClass(mos))\">\(Self.optional(mos, 2))</td>"
                    + Self.jitterBufferCells(stream.jitterBuffer) + "</tr>\n"
            }
        }
        return table + "</tbody>\n</table>\n"
    }

    private static func section(_ stream: StreamReport, anchor: String) -> String {
        let times = stream.timeline.map { $0.startSeconds + $0.durationSeconds / 2 }
        let starts = stream.timeline.map(\.startSeconds)
        let width = stream.timeline.first?.durationSeconds ?? 1
        let duration = (stream.timeline.last.map { $0.startSeconds + $0.durationSeconds } ?? 1)
        var html = "<section id=\"\(anchor)\">\n<h3>\(HTMLText.escape(stream.key.description))</h3>\n<p class=\"facts\">"
        html += [
            "codec \(HTMLText.escape(stream.codec ?? "unknown"))",
            "\(stream.packets) packets",
            "\(stream.lost) lost (\(stream.lossPercent.formatted(decimals: 2)) %)",
            "\(stream.duplicates) duplicates, \(stream.outOfOrder) out of order",
            "jitter \(optional(stream.jitterMilliseconds, 3)) ms",
            "RTT \(optional(stream.roundTripMilliseconds, 1)) ms",
            "R \(optional(stream.quality?.rFactor, 1)), MOS \(optional(stream.quality?.meanOpinionScore, 2))",
            stream.dtmfEvents.isEmpty ? nil : "DTMF \(HTMLText.escape(stream.dtmfEvents.map(\.key).joined()))",
            stream.audioReason.map { "audio not decoded: \(HTMLText.escape($0))" },
        ].compactMap { $0 }.joined(separator: " · ")
        html += "</p>\n"
        if let quality = stream.quality {
            html +=
                "<p class=\"facts\">Ie \(quality.equipmentImpairment.formatted(decimals: 2)), Bpl "
                + "\(quality.packetLossRobustness.formatted(decimals: 2)) (\(HTMLText.escape(quality.codecKey))): "
                + "\(HTMLText.escape(quality.impairmentSource))</p>\n"
        }
        let hasClock = stream.clockRateHertz != nil
        html += SVGChart(
            title: "Interarrival jitter (RFC 3550, max per interval)", unit: "ms", durationSeconds: duration,
            series: [
                .init(
                    name: "jitter", color: "#1f77b4", style: .line,
                    points: zip(times, stream.timeline).map { ($0, hasClock ? $1.maximumJitterMilliseconds : nil) })
            ]
        ).render()
        html += SVGChart(
            title: "Delta between packets", unit: "ms", durationSeconds: duration,
            series: [
                .init(
                    name: "max", color: "#d62728", style: .line,
                    points: zip(times, stream.timeline).map { ($0, $1.packets > 1 ? $1.maximumDeltaMilliseconds : nil) }),
                .init(
                    name: "mean", color: "#2ca02c", style: .line,
                    points: zip(times, stream.timeline).map { ($0, $1.packets > 1 ? $1.meanDeltaMilliseconds : nil) }),
            ]
        ).render()
        html += SVGChart(
            title: "Loss and late events per interval", unit: "packets", durationSeconds: duration,
            series: [
                .init(
                    name: "lost", color: "#d62728", style: .bars,
                    points: zip(starts, stream.timeline).map { ($0, Double($1.lost)) }, barWidth: width / 2),
                .init(
                    name: "late or duplicate", color: "#ff7f0e", style: .bars,
                    points: zip(times, stream.timeline).map { ($0, Double($1.late)) }, barWidth: width / 2),
            ], counts: true
        ).render()
        if stream.quality != nil {
            html += SVGChart(
                title: "MOS-CQE per interval (E-model from that interval's loss and the stream's mouth-to-ear delay)", unit: "MOS",
                durationSeconds: duration,
                series: [
                    .init(
                        name: "MOS", color: "#9467bd", style: .line,
                        points: zip(times, stream.timeline).map { ($0, $1.meanOpinionScore) })
                ],
                fixedRange: 1...5
            ).render()
        } else {
            html += "<p class=\"meta\">No MOS plot: the E-model has no impairment values for this codec.</p>\n"
        }
        return html + "</section>\n"
    }

    /// The summary table's cells for the loss and delay behind our jitter buffer.
    private static func jitterBufferCells(_ report: JitterBufferReport?) -> String {
        guard let report else { return "<td>–</td><td>–</td><td>–</td><td>–</td>" }
        return "<td>\(report.p50DelayMilliseconds.formatted(decimals: 1))/\(report.p95DelayMilliseconds.formatted(decimals: 1))</td>"
            + "<td>\(report.effectiveLossPercent.formatted(decimals: 2))</td><td>\(report.concealmentPercent.formatted(decimals: 2))</td>"
            + "<td>\(report.interruptions)</td>"
    }

    private static func anchor(file: CaptureFileReport, index: Int) -> String {
        let path = file.path.unicodeScalars.map { CharacterSetting.isAnchorSafe($0) ? String($0) : "-" }.joined()
        return "stream-\(path)-\(index + 1)"
    }

    private static func optional(_ value: Double?, _ decimals: Int) -> String {
        value.map { $0.formatted(decimals: decimals) } ?? "–"
    }

    private static func triple(_ figures: WiresharkMillisecondFigures) -> String {
        "\(figures.minimum.formatted(decimals: 3))/\(figures.mean.formatted(decimals: 3))/\(figures.maximum.formatted(decimals: 3))"
    }

    private static func mosClass(_ mos: Double?) -> String {
        guard let mos else { return "" }
        return mos >= 4 ? "good" : mos >= 3.6 ? "fair" : "poor"
    }

    private static let styleSheet = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#222;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 4px;border-bottom:1px solid #ccc}
        h3{font-size:15px;margin:20px 0 4px;font-family:ui-monospace,Menlo,monospace}
        .meta{color:#666;font-size:13px;margin:2px 0 10px}.facts{font-size:13px;margin:2px 0 8px}
        .warning{color:#a40000;font-weight:600}
        table.summary{border-collapse:collapse;font-size:12px;width:100%}
        table.summary th,table.summary td{border:1px solid #ddd;padding:3px 5px;text-align:right}
        table.summary td{white-space:nowrap}table.summary td:first-child{white-space:normal;font-family:ui-monospace,Menlo,monospace}
        table.summary th{background:#f3f3f3}table.summary td:first-child,table.summary td:nth-child(2){text-align:left}
        td.good{background:#e3f6e3}td.fair{background:#fff4d6}td.poor{background:#fde2e2}
        svg.chart{width:100%;max-width:960px;height:auto;display:block;margin:6px 0 14px}
        svg .grid{stroke:#e6e6e6;stroke-width:1}svg .frame{fill:none;stroke:#999;stroke-width:1}
        svg text{font-size:11px;fill:#444}svg .title{font-size:13px;font-weight:600;fill:#222}
        svg .ytick{text-anchor:end;dominant-baseline:middle}svg .xtick{text-anchor:middle}
        """
}

/// Which characters may stay in an HTML id.
private enum CharacterSetting {
    static func isAnchorSafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
    }
}
