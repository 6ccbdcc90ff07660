import BenchmarkHarness
import Codecs
import Foundation

/// PESQ of a whole playout, in consecutive speech-length windows, averaged
/// (`scripts/listening-quality/pesq_windows.py` over PyPI `pesq`, an outside oracle): P.862.1
/// MOS-LQO for 8 kHz audio, P.862.2 for 16 kHz.
public struct WindowedPESQ: Sendable {
    /// Where the reference and the playout are written before they are scored.
    public let folder: URL

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

    /// The mean MOS-LQO of `heard` against `reference` (mono, `sampleRate` 8000 or 16000): window
    /// k compares reference[k·W, (k+1)·W) with the heard audio `offsetSamples` later.
    public func meanOpinion(
        reference: [Int16], heard: [Int16], sampleRate: Int, windowSamples: Int, offsetSamples: Int
    ) throws -> Double {
        let format = AudioFormat(sampleRate: sampleRate, channels: 1)
        let referenceFile = folder.appendingPathComponent("reference.wav")
        let heardFile = folder.appendingPathComponent("heard.wav")
        try WAVAudio(format: format, samples: reference).write(toFile: referenceFile.path)
        try WAVAudio(format: format, samples: heard).write(toFile: heardFile.path)
        let result = try Subprocess.run(
            searchingPath: [
                "python3", Self.script.path, referenceFile.path, heardFile.path, sampleRate == 16_000 ? "wb" : "nb",
                String(windowSamples), String(offsetSamples),
            ]
        )
        let text = result.standardOutput.split(separator: " ").first.map(String.init) ?? ""
        guard result.status == 0, let score = Double(text) else {
            let message = result.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? text
            throw JitterListeningError.scoringFailed(status: result.status, message: message)
        }
        return score
    }
}
