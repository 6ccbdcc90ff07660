import Codecs
import Foundation
import Testing
import TestSupport

/// PESQ scores of G.711 on espeak-ng speech (issue 4's listening targets). Slow-ish and needs
/// espeak-ng, sox and PyPI `pesq`, so it runs only with `CODECS_LISTENING=1`. The same
/// measurement through the CLI is `scripts/listening-quality/run.sh`.
@Suite(
    "G.711 listening quality (PESQ)",
    .enabled(if: ProcessInfo.processInfo.environment["CODECS_LISTENING"] == "1", "set CODECS_LISTENING=1")
)
struct ListeningQualityTests {
    static let scripts = SharedData.packageRoot.appendingPathComponent("scripts/listening-quality")

    /// A seeded uniform generator (SplitMix64) for the loss pattern.
    struct LossPattern {
        var state: UInt64
        mutating func isLost(percent: Double) -> Bool {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53) * 100 < percent
        }
    }

    /// `audio` sent through G.711 in 20 ms packets, `lossPercent` of them dropped at random.
    static func transcode(
        _ audio: WAVAudio, law: G711Law, concealment: G711ConcealmentMethod, lossPercent: Double, seed: UInt64
    ) throws -> WAVAudio {
        var encoder = try G711Encoder(law: law)
        var decoder = G711Decoder(law: law, concealment: concealment)
        var pattern = LossPattern(state: seed)
        let frame = encoder.samplesPerFrame
        var input = audio.samples
        input += [Int16](repeating: 0, count: (frame - input.count % frame) % frame)
        var output = [Int16](repeating: 0, count: input.count)
        var payload = [UInt8](repeating: 0, count: frame)
        for start in stride(from: 0, to: input.count, by: frame) {
            let range = start..<start + frame
            _ = try input[range].withUnsafeBufferPointer { pcm in
                try payload.withUnsafeMutableBytes { try encoder.encode(pcm, into: $0) }
            }
            let lost = pattern.isLost(percent: lossPercent)
            _ = try output[range].withUnsafeMutableBufferPointer { out in
                try lost
                    ? decoder.decode(lost: frame, into: out)
                    : payload.withUnsafeBytes { try decoder.decode($0, into: out) }
            }
        }
        return WAVAudio(format: audio.format, samples: Array(output[..<audio.samples.count]))
    }

    /// The PESQ-NB score of `degraded` against `reference`.
    static func pesq(_ reference: String, _ degraded: WAVAudio, in folder: URL, name: String) throws -> Double {
        let path = folder.appendingPathComponent(name + ".wav").path
        try degraded.write(toFile: path)
        let output = try ExternalTool.run(["python3", scripts.appendingPathComponent("pesq_score.py").path, reference, path, "nb"])
        return try #require(Double(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("G.711 round trip scores PESQ-NB ≥ 3.9; at 5 % loss Appendix I beats zero fill and repetition")
    func scores() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("g711-pesq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reference = folder.appendingPathComponent("speech8k.wav").path
        try ExternalTool.run([Self.scripts.appendingPathComponent("make_speech.sh").path, reference, "8000"])
        let speech = try WAVAudio(contentsOfFile: reference)

        for law in G711Law.allCases {
            let clean = try Self.pesq(
                reference, Self.transcode(speech, law: law, concealment: .appendixI, lossPercent: 0, seed: 1),
                in: folder, name: "clean-\(law.encodingName)")
            print("PESQ-NB \(law.encodingName) round trip: \(clean)")
            #expect(clean >= 3.9, "\(law) round trip")
        }
        var means: [G711ConcealmentMethod: Double] = [:]
        for method in G711ConcealmentMethod.allCases {
            let seeds: [UInt64] = [1, 2, 3]
            let scores = try seeds.map { seed in
                try Self.pesq(
                    reference, Self.transcode(speech, law: .muLaw, concealment: method, lossPercent: 5, seed: seed),
                    in: folder, name: "loss-\(method)-\(seed)")
            }
            means[method] = scores.reduce(0, +) / Double(scores.count)
            print("PESQ-NB PCMU 5 % loss, \(method): \(scores) mean \(means[method] ?? 0)")
        }
        let appendixI = try #require(means[.appendixI])
        #expect(appendixI > means[.frameRepetition] ?? .infinity)
        #expect(appendixI > means[.zeroFill] ?? .infinity)
    }
}
