import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import QualityMetrics
import CaptureAnalysis
import TestSupport
import Testing

/// The HTML report is one self-contained page whose SVG plots are well-formed XML.
@Suite("HTML report")
struct ReportHTMLTests {
    private func report(_ captures: [String]) throws -> AnalysisReport {
        let files = try captures.map { CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture($0).path) }
        return AnalysisReport(tool: ToolInfo(name: "mediabench", version: "test", options: [:]), files: files)
    }

    @Test func pageIsSelfContained() throws {
        let html = try report(["ws_SIP_DTMF2.pcap", "ndpi_rtp.pcapng"]).html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        for forbidden in ["<script", "src=", "href=\"http", "url(", "@import", "<link"] {
            #expect(!html.contains(forbidden), "the page refers to something outside it: \(forbidden)")
        }
        let withoutNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"))
    }

    /// Per stream: jitter, delta and loss plots, and a MOS plot when the codec has E-model
    /// values (the two PCMA streams of the SIP call, not the unknown dynamic types of nDPI's).
    @Test func everyPlotIsWellFormedSVG() throws {
        let analysis = try report(["ws_SIP_DTMF2.pcap", "ndpi_rtp.pcapng"])
        let html = analysis.html()
        let charts = html.components(separatedBy: "<svg ").dropFirst().map { "<svg " + ($0.components(separatedBy: "</svg>").first ?? "") + "</svg>" }
        let streams = analysis.files.flatMap(\.streams)
        #expect(charts.count == streams.count * 3 + streams.filter { $0.quality != nil }.count)
        for chart in charts {
            let parser = XMLParser(data: Data(chart.utf8))
            #expect(parser.parse(), "malformed SVG: \(parser.parserError.map(String.init(describing:)) ?? "?")")
        }
    }

    /// Text from the capture (here a file name) is escaped, never markup.
    @Test func textIsEscaped() {
        var file = CaptureFileReport(path: "<b>call & \"more\".pcap")
        file.error = "it broke <here>"
        let html = AnalysisReport(tool: ToolInfo(name: "t", version: "1", options: [:]), files: [file]).html()
        #expect(html.contains("&lt;b&gt;call &amp; &quot;more&quot;.pcap"))
        #expect(html.contains("it broke &lt;here&gt;"))
        #expect(!html.contains("<b>call"))
    }
}
