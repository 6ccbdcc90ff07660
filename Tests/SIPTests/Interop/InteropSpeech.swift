import Codecs
import Foundation
import TestSupport

/// The speech both sides say, made with espeak-ng and sox, and the PESQ oracle.
struct InteropSpeech: Sendable {
    /// The engine's sentence and the peer's, each as 8 kHz and 48 kHz mono WAV files.
    let directory: String

    static let engineText = "The engine speaks. Seven, four, two, nine."
    static let peerText = "Softphone here. Cloudy with light rain."
    /// Seconds the call lets both sentences play before DTMF, hold and resume follow: the
    /// longer sentence and 0.75 s (a digit sent earlier replaces the end of the sentence, and
    /// Linphone plays received digits into what it records).
    private(set) var speakingSeconds = 0.0

    /// Makes the files in `directory`.
    /// - Throws: when espeak-ng or sox is missing (a test failure naming the package).
    init(directory: String) throws {
        self.directory = directory
        var longest = 0.0
        for (name, text) in [("engine", Self.engineText), ("peer", Self.peerText)] {
            try Self.tool(["espeak-ng", "-s", "150", "-w", "\(directory)/\(name)-raw.wav", text], package: "espeak-ng")
            for rate in [8000, 48000] {
                try Self.tool(["sox", "\(directory)/\(name)-raw.wav", "-r", "\(rate)", "-c", "1", "-b", "16", path(name, rate)], package: "sox")
                // The peers play from a file: speech, then silence for the rest of the call.
                try Self.tool(["sox", path(name, rate), paddedPath(name, rate), "pad", "0", "30"], package: "sox")
                // baresip's aufile wants Opus's two channels at 48 kHz.
                try Self.tool(["sox", path(name, rate), "-c", "2", paddedPath(name, rate, stereo: true), "pad", "0", "30"], package: "sox")
            }
            longest = max(longest, Double(try WAVAudio(contentsOfFile: path(name, 8000)).samples.count) / 8000)
        }
        speakingSeconds = longest + 0.75
    }

    func path(_ name: String, _ rate: Int) -> String { "\(directory)/\(name)-\(rate).wav" }
    func paddedPath(_ name: String, _ rate: Int, stereo: Bool = false) -> String {
        "\(directory)/\(name)-\(rate)\(stereo ? "-stereo" : "")-padded.wav"
    }

    /// The samples of `name`'s speech at `rate`.
    func samples(_ name: String, _ rate: Int) throws -> [Int16] {
        try WAVAudio(contentsOfFile: path(name, rate)).samples
    }

    /// PESQ (narrowband, 8 kHz) of `heard` against `name`'s speech. The heard recording starts
    /// with whatever came before the speech (call setup, the jitter buffer filling: longer on a
    /// loaded machine), so a fixed crop from its start can cut the sentence's end. The sentence
    /// is found in it first (``speechLag(of:in:)``), and the sentence's own length is scored,
    /// with ``scoringMarginSeconds`` of context either side on both files.
    /// `inputOptions` override what the heard file's header says (sox input options).
    func pesq(heard: String, against name: String, inputOptions: [String] = []) throws -> Double {
        let reference = "\(heard).ref.wav"
        let whole = "\(heard).8k.wav"
        let degraded = "\(heard).deg.wav"
        try Self.tool(["sox"] + inputOptions + [heard, "-r", "8000", "-c", "1", "-b", "16", whole], package: "sox")
        let speech = try samples(name, 8000)
        let lagSamples = Self.speechLag(of: speech, in: try WAVAudio(contentsOfFile: whole).samples)
        let margin = Self.scoringMarginSeconds
        let start = max(0, Double(lagSamples) / 8000 - margin)
        let length = Double(speech.count) / 8000 + 2 * margin
        try Self.tool(["sox", path(name, 8000), reference, "pad", "\(margin)", "\(margin)"], package: "sox")
        try Self.tool(["sox", whole, degraded, "trim", "\(start)", "\(length)", "pad", "0", "\(length)", "trim", "0", "\(length)"], package: "sox")
        let script = Self.repositoryRoot + "/scripts/listening-quality/pesq_score.py"
        let output = try Self.tool(["python3", script, reference, degraded, "nb"], package: "python3 pesq (pip install pesq)")
        guard let score = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw InteropFailure("pesq_score.py printed '\(output)'")
        }
        return score
    }

    /// Context kept before and after the sentence when scoring, in seconds: enough for the
    /// 10 ms steps of the alignment; more silence only lowers the score (measured: 0.25 s cost
    /// 0.03 to 0.1 against 0.05 s on the same recordings).
    static let scoringMarginSeconds = 0.05

    /// Where `speech` starts in `recording` (both 8 kHz), in samples: the lag, in 10 ms steps
    /// up to 10 s, at which the 10 ms energy envelopes correlate best (robust to what codecs
    /// and concealment do to the waveform). 0 when the recording is shorter than the speech.
    static func speechLag(of speech: [Int16], in recording: [Int16]) -> Int {
        let block = 80
        func envelope(_ samples: [Int16]) -> [Double] {
            stride(from: 0, to: samples.count - block + 1, by: block).map { start in
                samples[start..<(start + block)].reduce(0.0) { $0 + abs(Double($1)) } / Double(block)
            }
        }
        let spoken = envelope(speech), heard = envelope(recording)
        guard !spoken.isEmpty, heard.count >= spoken.count else { return 0 }
        let spokenMean = spoken.reduce(0, +) / Double(spoken.count)
        var best = (lag: 0, correlation: -Double.infinity)
        for lag in 0...min(heard.count - spoken.count, 1000) {
            let window = heard[lag..<(lag + spoken.count)]
            let heardMean = window.reduce(0, +) / Double(spoken.count)
            var product = 0.0, spokenEnergy = 0.0, heardEnergy = 0.0
            for (a, b) in zip(spoken, window) {
                product += (a - spokenMean) * (b - heardMean)
                spokenEnergy += (a - spokenMean) * (a - spokenMean)
                heardEnergy += (b - heardMean) * (b - heardMean)
            }
            let correlation = product / max((spokenEnergy * heardEnergy).squareRoot(), 1e-9)
            if correlation > best.correlation { best = (lag, correlation) }
        }
        return best.lag * block
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
