import Dispatch
import QualityMetrics
import Synchronization

/// `mediabench analyze FILE…`: call-quality metrics from packet captures (issue 6).
struct AnalyzeCommand: Command {
    /// The report formats of `analyze`.
    enum ReportFormat: String, CaseIterable, Sendable {
        /// A readable text report.
        case text
        /// The report JSON of DESIGN.md.
        case json
        /// One CSV line per stream.
        case csv
        /// A self-contained HTML page with SVG plots.
        case html
    }

    static let files = Positional(
        "FILE", .string, arity: .oneOrMore, help: "pcap or pcapng captures to analyse.")
    static let format = Option(
        "format", "FORMAT", ArgumentType<ReportFormat>.oneOf, help: "Report format (default: text).")
    static let output = Option(
        "output", "PATH", .string, help: "Write the report to PATH instead of standard output.")
    static let srtpKeys = Option(
        "srtp-key", "SSRC:BASE64", .string, repeats: true,
        help: "SRTP master key and salt for the stream SSRC, or '*' for every stream (not yet available).")
    static let wavDirectory = Option(
        "wav-dir", "DIR", .string, help: "Write what a listener would have heard, one WAV per stream (not yet available).")
    static let jobs = Option("jobs", "N", .positiveInteger, help: "Files analysed in parallel (default: 1).")

    let name = "analyze"
    let summary = "Compute per-stream call-quality metrics from pcap/pcapng captures."
    let discussion = """
        For every RTP stream: packets, loss, duplicates, reordering, RFC 3550 jitter and the same \
        figures as Wireshark computes them, burst/gap metrics, RTT from RTCP, what the far end \
        reported, DTMF, and E-model R and MOS. Streams are learned from SIP/SDP in the capture, \
        or found heuristically. Exit status 1 when a file could not be read to its end (the \
        report still holds what was found).
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.files, Self.format, Self.output, Self.srtpKeys, Self.wavDirectory, Self.jobs]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        if !arguments.all(Self.srtpKeys).isEmpty {
            throw UsageError("--srtp-key: SRTP decryption is not available yet (the headers are analysed in clear text)")
        }
        if arguments[Self.wavDirectory] != nil {
            throw UsageError("--wav-dir: writing what a listener heard is not available yet")
        }
        let paths = arguments.all(Self.files)
        let format = arguments[Self.format] ?? .text
        let jobs = arguments[Self.jobs] ?? 1
        let tool = ToolInfo(
            name: "mediabench", version: Mediabench.version,
            options: ["format": format.rawValue, "jobs": String(jobs)])
        let report = AnalysisReport(tool: tool, files: Self.analyze(paths, jobs: jobs))
        let rendered: String = switch format {
        case .text: report.text()
        case .json: try report.json()
        case .csv: report.csv()
        case .html: report.html()
        }
        try DataOutput.write(rendered, toFile: arguments[Self.output], console: console)
        var status: Int32 = 0
        for file in report.files {
            if let error = file.error {
                console.writeError("mediabench analyze: \(error)\n")
                status = 1
            } else if let explanation = file.noStreamsExplanation {
                console.writeError("mediabench analyze: \(file.path): \(explanation)\n")
            }
        }
        return status
    }

    /// Analyses every file, `jobs` at a time, one analyzer per file; reports in input order.
    static func analyze(_ paths: [String], jobs: Int) -> [CaptureFileReport] {
        let workers = min(max(jobs, 1), paths.count)
        guard workers > 1 else { return paths.map { CaptureAnalyzer.analyzeFile(atPath: $0) } }
        let reports = Mutex([CaptureFileReport?](repeating: nil, count: paths.count))
        let nextIndex = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                let report = CaptureAnalyzer.analyzeFile(atPath: paths[index])
                reports.withLock { $0[index] = report }
            }
        }
        return reports.withLock { $0 }.enumerated().map { $1 ?? CaptureFileReport(path: paths[$0]) }
    }
}
