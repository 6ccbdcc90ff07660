import Foundation
import QualityMetrics
import Testing
import TestSupport

@testable import MediabenchCLI

/// `simulate --audio` rates what was heard as a conversation: espeak-ng speech (made here with
/// espeak-ng and sox) through the whole trace, PESQ in windows (PyPI `pesq`), R_conv.
@Suite struct SimulateConversationTests {
    /// The rating fields of one run.
    struct Rated {
        let pesq: Double, mouthToEar: Double, meanDelay: Double, rConv: Double
    }

    static func simulate(_ scenario: String, buffer: String, speech: String, folder: URL) throws -> Rated {
        let run = Invocation([
            "simulate", "--scenario", scenario, "--jitter-buffer", buffer, "--audio", speech, "--output",
            folder.appendingPathComponent("heard-\(scenario)-\(buffer).wav").path, "--format", "json",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        return Rated(
            pesq: try #require(object["pesq"] as? Double), mouthToEar: try #require(object["mouth_to_ear_ms"] as? Double),
            meanDelay: try #require(object["mean_delay_ms"] as? Double), rConv: try #require(object["r_conv"] as? Double)
        )
    }

    @Test func rConvIsHeardQualityLessDelayAndTheDefaultBeatsTheListeningPreset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conversation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spoken = folder.appendingPathComponent("spoken.wav").path
        let speech = folder.appendingPathComponent("speech.wav").path
        try ExternalTool.run([
            "espeak-ng", "-v", "en-gb", "-s", "170", "-w", spoken,
            "The boy was there when the sun rose. A rod is used to catch pink salmon. Help the woman get back to her feet.",
        ])
        try ExternalTool.run(["sox", spoken, "-r", "8000", "-c", "1", "-b", "16", speech])

        let clean = try Self.simulate("clean", buffer: "ours", speech: speech, folder: folder)
        #expect(abs(clean.mouthToEar - clean.meanDelay - 20) < 1e-9, "G.711: 20 ms of packetisation, no look-ahead")
        let expected = try ConversationalRating(listeningMOS: clean.pesq, bandwidth: .narrowband, mouthToEarMilliseconds: clean.mouthToEar)
        #expect(abs(clean.rConv - expected.rFactor) < 1e-6)
        #expect(clean.pesq > 3.8, "a clean network plays the speech whole")

        let ours = try Self.simulate("heavy-jitter", buffer: "ours", speech: speech, folder: folder)
        let listening = try Self.simulate("heavy-jitter", buffer: "listening", speech: speech, folder: folder)
        #expect(clean.rConv > ours.rConv + 10)
        #expect(listening.pesq > ours.pesq - 0.3, "the listening preset hears a little better…")
        #expect(ours.rConv > listening.rConv + 5, "…but waits so long that the conversation is worse")
    }
}
