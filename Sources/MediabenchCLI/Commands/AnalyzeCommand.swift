import Dispatch
import Foundation
import QualityMetrics
import CaptureAnalysis
import RTP
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
        /// One flat JSON object per stream per line (schema in the README).
        case jsonl
    }

    static let files = Positional(
        "FILE", .string, arity: .oneOrMore, help: "pcap or pcapng captures to analyse.")
    static let format = Option(
        "format", "FORMAT", ArgumentType<ReportFormat>.oneOf, help: "Report format (default: text).")
    static let output = Option(
        "output", "PATH", .string, help: "Write the report to PATH instead of standard output.")
    static let srtpKeys = Option(
        "srtp-key", "SSRC:[SUITE:]BASE64", .string, repeats: true,
        help: "SRTP master key and salt for the stream SSRC (hex 0x… or decimal), or '*' for every stream; SUITE as in SDES (default AES_CM_128_HMAC_SHA1_80).")
    static let oneWayDelay = Option(
        "one-way-ms", "MS", .nonNegativeNumber,
        help: "The path's one-way network delay for the rating when the capture's RTCP gives no path round trip.")
    static let wavDirectory = Option(
        "wav-dir", "DIR", .string,
        help: "Write what a listener behind our jitter buffer heard, one WAV per decodable stream (PCMU, PCMA, Opus), into DIR.")
    static let noJitterReplay = Flag(
        "no-jitter-replay", help: "Skip replaying each stream through our jitter buffer (faster; no jitter_buffer figures, no WAV).")
    static let jobs = Option("jobs", "N", .positiveInteger, help: "Files analysed in parallel (default: 1).")
    static let replayThreads = Option(
        "replay-threads", "N", .positiveInteger,
        help:
            "Threads replaying a file's streams through our jitter buffer while it is read, the reading thread among them; 1 replays on the reading thread alone (default: the cores shared among the files analysed at once, at most 8). The reports are the same whatever N."
    )

    let name = "analyze"
    let summary = "Compute per-stream call-quality metrics from pcap/pcapng captures."
    let discussion = """
        For every RTP stream: packets, loss, duplicates, reordering, RFC 3550 jitter and the same \
        figures as Wireshark computes them, burst/gap metrics, RTT from RTCP, what the far end \
        reported, DTMF, and E-model R and MOS; and, replaying the stream's arrivals through our \
        jitter buffer, the playout delay and the effective loss and concealment a listener \
        would have had. Streams are learned from SIP/SDP in the capture, \
        or found heuristically. Exit status 1 when a file could not be read to its end (the \
        report still holds what was found).
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.files, Self.format, Self.output, Self.srtpKeys, Self.oneWayDelay, Self.wavDirectory, Self.noJitterReplay, Self.jobs, Self.replayThreads]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var configuration = CaptureAnalyzer.Configuration()
        configuration.srtpKeys = try arguments.all(Self.srtpKeys).map(Self.keyAssignment)
        configuration.replaysJitterBuffer = !arguments[Self.noJitterReplay]
        configuration.oneWayDelayMilliseconds = arguments[Self.oneWayDelay]
        if let directory = arguments[Self.wavDirectory] {
            guard configuration.replaysJitterBuffer else {
                throw UsageError("--wav-dir needs the jitter-buffer replay: drop --no-jitter-replay")
            }
            try Self.checkWritableDirectory(directory)
            configuration.wavDirectory = directory
        }
        let paths = arguments.all(Self.files)
        let format = arguments[Self.format] ?? .text
        let jobs = arguments[Self.jobs] ?? 1
        let filesAtOnce = min(jobs, max(paths.count, 1))
        let replayThreads =
            arguments[Self.replayThreads] ?? min(max(ProcessInfo.processInfo.activeProcessorCount / filesAtOnce, 1), 8)
        configuration.replayWorkers = replayThreads - 1
        let tool = ToolInfo(
            name: "mediabench", version: Mediabench.version,
            options: [
                "format": format.rawValue, "jobs": String(jobs), "srtp_keys": String(configuration.srtpKeys.count),
                "jitter_replay": String(configuration.replaysJitterBuffer),
            ].merging(configuration.wavDirectory.map { ["wav_dir": $0] } ?? [:]) { first, _ in first })
        let report = AnalysisReport(tool: tool, files: Self.analyze(paths, jobs: jobs, configuration: configuration))
        let rendered: String =
            switch format {
            case .text: report.text()
            case .json: try report.json()
            case .csv: report.csv()
            case .html: report.html()
            case .jsonl: try report.jsonLines()
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
            for stream in file.streams {
                guard let reason = stream.listenerWAV?.skippedReason else { continue }
                console.writeError("mediabench analyze: \(file.path): stream \(stream.key): no WAV: \(reason)\n")
            }
        }
        return status
    }

    /// Refuses a `--wav-dir` that is not an existing folder this process can write into.
    static func checkWritableDirectory(_ path: String) throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("--wav-dir \(path): no such directory")
        }
        guard isDirectory.boolValue else { throw CommandFailure("--wav-dir \(path): not a directory") }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw CommandFailure("--wav-dir \(path): directory is not writable")
        }
    }

    /// Analyses every file, `jobs` at a time, one analyzer per file; reports in input order.
    static func analyze(
        _ paths: [String], jobs: Int, configuration: CaptureAnalyzer.Configuration
    ) -> [CaptureFileReport] {
        let workers = min(max(jobs, 1), paths.count)
        guard workers > 1 else { return paths.map { CaptureAnalyzer.analyzeFile(atPath: $0, configuration: configuration) } }
        let reports = Mutex([CaptureFileReport?](repeating: nil, count: paths.count))
        let nextIndex = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                let report = CaptureAnalyzer.analyzeFile(atPath: paths[index], configuration: configuration)
                reports.withLock { $0[index] = report }
            }
        }
        return reports.withLock { $0 }.enumerated().map { $1 ?? CaptureFileReport(path: paths[$0]) }
    }

    /// `SSRC:[SUITE:]BASE64` (SSRC in hex with `0x` or decimal, or `*`): the master key and
    /// salt of SUITE (an SDES suite name, AES_CM_128_HMAC_SHA1_80 when left out). The key never
    /// appears in a message.
    static func keyAssignment(_ text: String) throws(UsageError) -> SRTPKeyAssignment {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else {
            throw UsageError("--srtp-key: expected SSRC:BASE64, SSRC:SUITE:BASE64 or '*:…'")
        }
        let selector = parts[0]
        let ssrc: UInt32?
        if selector == "*" {
            ssrc = nil
        } else if let value = selector.hasPrefix("0x") || selector.hasPrefix("0X")
            ? UInt32(selector.dropFirst(2), radix: 16) : UInt32(selector)
        {
            ssrc = value
        } else {
            throw UsageError("--srtp-key: '\(selector)' is not an SSRC (hex 0x… or decimal) or '*'")
        }
        var suite = SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80
        if parts.count == 3 {
            guard let named = SRTPCryptoSuite(sdesName: parts[1]) else {
                let known = SRTPCryptoSuite.allCases.map(\.sdesName).joined(separator: ", ")
                throw UsageError("--srtp-key: unknown suite '\(parts[1])' (one of \(known))")
            }
            suite = named
        }
        guard let octets = Data(base64Encoded: String(parts[parts.count - 1])) else {
            throw UsageError("--srtp-key: the key is not valid base64")
        }
        do throws(SRTPError) {
            return SRTPKeyAssignment(ssrc: ssrc, key: try SRTPMasterKey(suite: suite, keyAndSalt: octets))
        } catch {
            throw UsageError("--srtp-key: \(octets.count) octets of key and salt; \(suite.sdesName) needs \(suite.keyMaterialLength)")
        }
    }
}
