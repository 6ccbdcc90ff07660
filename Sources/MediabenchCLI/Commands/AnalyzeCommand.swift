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
        help: "SRTP master key and salt for the stream SSRC (hex or decimal), or '*' for every stream.")
    static let wavDirectory = Option(
        "wav-dir", "DIR", .string, help: "Write what a listener would have heard, one WAV per stream.")
    static let jobs = Option("jobs", "N", .positiveInteger, help: "Files analysed in parallel (default: 1).")

    let name = "analyze"
    let summary = "Compute per-stream call-quality metrics from pcap/pcapng captures."
    let discussion = """
        For every RTP stream: packets, loss, duplicates, reordering, RFC 3550 jitter and the same \
        figures as Wireshark computes them, burst/gap metrics, RTT from RTCP, E-model R and MOS, \
        and the loss and delay behind our jitter buffer.
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.files, Self.format, Self.output, Self.srtpKeys, Self.wavDirectory, Self.jobs]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
