import Codecs
import Foundation
import TestSupport

/// The speech both sides say, made with espeak-ng and sox, and the PESQ oracle.
struct InteropSpeech: Sendable {
    /// The engine's sentence and the peer's, each as 8 kHz and 48 kHz mono WAV files.
    let directory: String

    static let engineText = "The engine speaks. Seven, four, two, nine."
    static let peerText = "Softphone here. Cloudy with light rain."
    /// Seconds of each file PESQ compares (the sentence plus silence, cropped alike on both sides).
    static let scoredSeconds = 4.0

    /// Makes the files in `directory`.
    /// - Throws: when espeak-ng or sox is missing (a test failure naming the package).
    init(directory: String) throws {
        self.directory = directory
        for (name, text) in [("engine", Self.engineText), ("peer", Self.peerText)] {
            try Self.tool(["espeak-ng", "-s", "150", "-w", "\(directory)/\(name)-raw.wav", text], package: "espeak-ng")
            for rate in [8000, 48000] {
                try Self.tool(["sox", "\(directory)/\(name)-raw.wav", "-r", "\(rate)", "-c", "1", "-b", "16", path(name, rate)], package: "sox")
                // The peers play from a file: speech, then silence for the rest of the call.
                try Self.tool(["sox", path(name, rate), paddedPath(name, rate), "pad", "0", "30"], package: "sox")
                // baresip's aufile wants Opus's two channels at 48 kHz.
                try Self.tool(["sox", path(name, rate), "-c", "2", paddedPath(name, rate, stereo: true), "pad", "0", "30"], package: "sox")
            }
        }
    }

    func path(_ name: String, _ rate: Int) -> String { "\(directory)/\(name)-\(rate).wav" }
    func paddedPath(_ name: String, _ rate: Int, stereo: Bool = false) -> String {
        "\(directory)/\(name)-\(rate)\(stereo ? "-stereo" : "")-padded.wav"
    }

    /// The samples of `name`'s speech at `rate`.
    func samples(_ name: String, _ rate: Int) throws -> [Int16] {
        try WAVAudio(contentsOfFile: path(name, rate)).samples
    }

    /// PESQ (narrowband, 8 kHz) of `heard` against `name`'s speech, both cropped to ``scoredSeconds``.
    /// `inputOptions` override what the heard file's header says (sox input options).
    func pesq(heard: String, against name: String, inputOptions: [String] = []) throws -> Double {
        let reference = "\(heard).ref.wav"
        let degraded = "\(heard).deg.wav"
        try Self.tool(["sox", path(name, 8000), reference, "pad", "0", "\(Self.scoredSeconds)", "trim", "0", "\(Self.scoredSeconds)"], package: "sox")
        try Self.tool(["sox"] + inputOptions + [heard, "-r", "8000", "-c", "1", "-b", "16", degraded, "trim", "0", "\(Self.scoredSeconds)"], package: "sox")
        let script = Self.repositoryRoot + "/scripts/listening-quality/pesq_score.py"
        let output = try Self.tool(["python3", script, reference, degraded, "nb"], package: "python3 pesq (pip install pesq)")
        guard let score = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropFailure("pesq_score.py printed '\(output)'")
        }
        return score
    }

    /// Writes `samples` (interleaved in `format`) as a WAV file.
    static func write(_ samples: [Int16], format: AudioFormat, to path: String) throws {
        try WAVAudio(format: format, samples: samples).write(toFile: path)
    }

    /// The package's root directory.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @discardableResult
    static func tool(_ arguments: [String], package: String) throws -> String {
        do {
            return try ExternalTool.run(["timeout", "60"] + arguments).standardOutput
        } catch {
            throw InteropFailure("\(arguments[0]) failed (package \(package)): \(error)")
        }
    }
}
