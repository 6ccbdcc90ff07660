import BenchmarkHarness
import Codecs
import Foundation

/// PESQ of a whole playout, in consecutive speech-length windows, averaged
/// (`scripts/listening-quality/pesq_windows.py` over PyPI `pesq`, an outside oracle): P.862.1
/// MOS-LQO for 8 kHz audio, P.862.2 for 16 kHz.
///
/// Many playouts are scored by one run of the scorer (``meanOpinions(_:jobs:)``): one interpreter
/// start for a whole trace's rows instead of one per row, its windows shared by `jobs` worker
/// processes. The scores are those of one run per playout, to the digit.
public struct WindowedPESQ: Sendable {
    /// Where the reference and the playout are written before they are scored.
    public let folder: URL

    /// One playout to score: window k compares `reference`[k·W, (k+1)·W) with the heard audio
    /// `offsetSamples` later.
    struct Request {
        /// A WAV file of the reference (mono, 8000 or 16000 Hz), written by ``writeAudio(_:sampleRate:named:)``.
        let reference: URL
        /// A WAV file of what was heard, at the reference's rate.
        let heard: URL
        /// The rate of both: 8000 (P.862.1) or 16000 (P.862.2).
        let sampleRate: Int
        /// W, in samples.
        let windowSamples: Int
        /// Where the heard audio of window 0 starts, in samples.
        let offsetSamples: Int
    }

    /// A scorer that writes its files into `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// The scorer, beside this package's other listening-quality scripts.
    static var script: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Jitter
            .deletingLastPathComponent()  // Suites
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // package
            .appendingPathComponent("scripts/listening-quality/pesq_windows.py")
    }

    /// Writes `samples` (mono) as the WAV file `name` in the folder and returns where.
    func writeAudio(_ samples: [Int16], sampleRate: Int, named name: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try WAVAudio(format: AudioFormat(sampleRate: sampleRate, channels: 1), samples: samples).write(toFile: file.path)
        return file
    }

    /// The mean MOS-LQO of `heard` against `reference` (mono, `sampleRate` 8000 or 16000): window
    /// k compares reference[k·W, (k+1)·W) with the heard audio `offsetSamples` later.
    public func meanOpinion(
        reference: [Int16], heard: [Int16], sampleRate: Int, windowSamples: Int, offsetSamples: Int
    ) throws -> Double {
        let request = Request(
            reference: try writeAudio(reference, sampleRate: sampleRate, named: "reference.wav"),
            heard: try writeAudio(heard, sampleRate: sampleRate, named: "heard.wav"), sampleRate: sampleRate,
            windowSamples: windowSamples, offsetSamples: offsetSamples)
        return try meanOpinions([request], jobs: 1)[0].get()
    }

    /// The mean MOS-LQO of each request, in order, from one run of the scorer with `jobs` worker
    /// processes; a request that cannot be scored fails alone. Throws when the scorer does not run
    /// or answers other than one line per request.
    func meanOpinions(_ requests: [Request], jobs: Int) throws -> [Result<Double, JitterListeningError>] {
        guard !requests.isEmpty else { return [] }
        let list = folder.appendingPathComponent("requests-\(UUID().uuidString).txt")
        let lines = requests.map { request in
            [
                request.reference.path, request.heard.path, request.sampleRate == 16_000 ? "wb" : "nb", String(request.windowSamples),
                String(request.offsetSamples),
            ].joined(separator: "\t")
        }
        try (lines.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: list) }
        let result = try Subprocess.run(searchingPath: ["python3", Self.script.path, "--batch", list.path, String(max(jobs, 1))])
        let answers = result.standardOutput.split(whereSeparator: \.isNewline)
        guard result.status == 0, answers.count == requests.count else {
            let message = result.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            throw JitterListeningError.scoringFailed(status: result.status, message: message)
        }
        return answers.map { answer in
            let text = answer.split(separator: " ").first.map(String.init) ?? ""
            guard let score = Double(text) else { return .failure(.scoringFailed(status: result.status, message: String(answer))) }
            return .success(score)
        }
    }
}
