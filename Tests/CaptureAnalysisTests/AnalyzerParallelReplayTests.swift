import Capture
import Foundation
import CaptureAnalysis
import RTP
import TestSupport
import Testing

/// The jitter-buffer replays on worker threads (`Configuration.replayWorkers`): the reports and
/// WAV files are those of the replays on the reading thread.
@Suite("CaptureAnalyzer replay on worker threads")
struct AnalyzerParallelReplayTests {
    /// 12 G.711 streams interleaved, with jitter, loss, reordering, talkspurts and pauses; a
    /// third of them stop after 2 s, the rest after 6 s, and after two minutes of silence one
    /// more packet each (the idle sweep has finished their replays by then). With the replays
    /// on 1, 2 or 3 worker threads, the JSON report and every WAV file are byte for byte those
    /// of the replays on the reading thread.
    @Test func workerThreadsGiveTheSequentialReport() throws {
        let capture = try Self.writeMultiStreamCapture()
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let sequential = try Self.analyze(capture, replayWorkers: 0)
        #expect(sequential.wavs.count == 12)
        #expect(sequential.json.contains("\"jitter_buffer\""))
        for threads in [1, 2, 3] {
            let parallel = try Self.analyze(capture, replayWorkers: threads)
            #expect(parallel.json == sequential.json, "\(threads) replay threads")
            #expect(parallel.wavs == sequential.wavs, "\(threads) replay threads")
        }
    }

    /// A capture long enough that lanes fill (with one worker, 8 lanes for 12 streams: a lane
    /// of two long streams gets some 2900 packets, more than its 4 slots of 512 hold): the reading
    /// thread then runs batches itself, beside the worker, and the JSON report and every WAV
    /// file are still those of the replays on the reading thread.
    @Test func lanesThatFillGiveTheSequentialReport() throws {
        let capture = try Self.writeMultiStreamCapture(sequences: 1500)
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let sequential = try Self.analyze(capture, replayWorkers: 0)
        let parallel = try Self.analyze(capture, replayWorkers: 1)
        #expect(parallel.json == sequential.json)
        #expect(parallel.wavs == sequential.wavs)
    }

    /// Every catalogued capture (SIP calls, SRTP with and without keys, DTMF, Opus, G.722): the
    /// JSON report with the replays on two worker threads is the sequential one.
    @Test func everyFixtureCaptureIsTheSameOnWorkerThreads() throws {
        for url in try Fixtures.allCaptures() {
            var parallel = CaptureAnalyzer.Configuration()
            parallel.replayWorkers = 2
            let expected = try Self.json(CaptureAnalyzer.analyzeFile(atPath: url.path))
            let found = try Self.json(CaptureAnalyzer.analyzeFile(atPath: url.path, configuration: parallel))
            #expect(found == expected, "\(url.lastPathComponent)")
        }
    }

    /// The report's JSON and the WAV files' bytes by name, written into the same folder name
    /// for each analysis of `capture` (and another for each capture, as the tests run at once)
    /// so that the paths in the report agree.
    private static func analyze(_ capture: String, replayWorkers: Int) throws -> (json: String, wavs: [String: Data]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "analyzer-parallel-\(getpid())-\(URL(fileURLWithPath: capture).deletingPathExtension().lastPathComponent)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = CaptureAnalyzer.Configuration()
        configuration.wavDirectory = directory.path
        configuration.replayWorkers = replayWorkers
        let json = try json(CaptureAnalyzer.analyzeFile(atPath: capture, configuration: configuration))
        var wavs: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            wavs[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return (json, wavs)
    }

    private static func json(_ report: CaptureFileReport) throws -> String {
        try AnalysisReport(tool: ToolInfo(name: "test", version: "0", options: [:]), files: [report]).json()
    }

    /// See ``workerThreadsGiveTheSequentialReport()``: PCMU on even streams, PCMA on odd ones;
    /// payloads alternate a second of loud noise with a second of near silence. A third of the
    /// streams stop after a third of the `sequences`.
    private static func writeMultiStreamCapture(sequences: Int = 300) throws -> String {
        var capture = try AnalyzerSyntheticCapture(name: "parallel-replay")
        var random = SplitMix64(seed: 0x5EED)
        let streams = 12
        for sequence in 0..<sequences {
            for stream in 0..<streams {
                let last = stream % 3 == 0 ? sequences / 3 : sequences
                guard sequence < last, random.next() % 40 != 0 else { continue }  // 2.5 % lost
                let jitter = Double(random.next() % 60_000) / 1000  // up to 60 ms late: some reordering
                let milliseconds = Double(sequence) * 20 + Double(stream) * 0.3 + jitter
                try capture.write(
                    try payload(stream: stream, sequence: sequence, random: &random), at: milliseconds,
                    from: endpoint(stream, base: 20_000), to: endpoint(stream, base: 30_000))
            }
        }
        for stream in 0..<streams {
            try capture.write(
                try payload(stream: stream, sequence: sequences, random: &random), at: Double(sequences) * 20 + 134_000 + Double(stream),
                from: endpoint(stream, base: 20_000), to: endpoint(stream, base: 30_000))
        }
        return try capture.finish()
    }

    private static func endpoint(_ stream: Int, base: Int) -> UDPEndpoint {
        UDPEndpoint(address: .v4(IPv4Address(10, 0, 0, UInt8(1 + stream))), port: UInt16(base + 2 * stream))
    }

    private static func payload(stream: Int, sequence: Int, random: inout SplitMix64) throws -> [UInt8] {
        var packet = try AnalyzerSyntheticCapture.rtp(
            sequence: UInt16(truncatingIfNeeded: sequence), timestamp: UInt32(sequence * 160),
            payloadType: stream % 2 == 0 ? 0 : 8, ssrc: UInt32(0x1000 + stream))
        let talking = (sequence / 50) % 2 == 0
        for index in 12..<packet.count {
            // Loud noise in a talkspurt; G.711 codes next to silence in a pause (0xFF μ-law, 0xD5 A-law).
            let quiet: UInt8 = stream % 2 == 0 ? 0xFF : 0xD5
            packet[index] = talking ? UInt8(truncatingIfNeeded: random.next()) : quiet ^ UInt8(random.next() & 1)
        }
        return packet
    }
}
