import Foundation
import Testing

@testable import MediabenchCLI

@Suite struct SimulateCommandTests {
    @Test func scenarioPrintsEveryFigure() {
        let run = Invocation(["simulate", "--scenario", "spikes"])
        #expect(run.status == 0)
        for label in ["playout delay", "loss", "concealment", "time-stretch", "recovery (spikes)", "CPU per pull"] {
            #expect(run.standardOutput.contains(label), "\(label) missing")
        }
        #expect(run.standardOutput.contains("6 interruptions"), "one per stall of the scenario")
    }

    @Test func theDefaultPlaysEarlierThanTheListeningPreset() throws {
        func p95(_ buffer: String) throws -> Double {
            let run = Invocation(["simulate", "--scenario", "heavy-jitter", "--jitter-buffer", buffer, "--format", "json"])
            #expect(run.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(object["jitter_buffer"] as? String == buffer)
            return try #require(object["p95_delay_ms"] as? Double)
        }
        #expect(try p95("ours") < p95("listening") - 100)
    }

    @Test func traceFileAsJSONWithTheFixedBaseline() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        var text = "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n"
        for index in 0..<200 where index != 50 {
            text += "\(index),\(index * 160),\(index * 20),\(index * 20 + 40),160\n"
        }
        text += "50,8000,1000,,160\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = Invocation(["simulate", "--trace", file.path, "--jitter-buffer", "fixed:30", "--format", "json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(object["jitter_buffer"] as? String == "fixed:30")
        #expect(object["network_loss_percent"] as? Double == 0.5)
        #expect(object["effective_loss_percent"] as? Double == 0.5)
        // 40 ms of network and 30 ms of buffer.
        #expect(object["p50_delay_ms"] as? Double == 70)
    }

    @Test(arguments: [
        (["simulate"], "mediabench simulate: give either --trace FILE or --scenario NAME\n"),
        (
            ["simulate", "--scenario", "lunar"],
            "mediabench simulate: --scenario: unknown scenario 'lunar' (known: clean, moderate-jitter, heavy-jitter, bursty-loss, spikes, drift-fast, drift-slow, reordering, dtx)\n"
        ),
        (
            ["simulate", "--scenario", "clean", "--jitter-buffer", "fixed:x"],
            "mediabench simulate: --jitter-buffer: expected ours, listening or fixed:MS, got 'fixed:x'\n"
        ),
    ])
    func usageErrors(arguments: [String], message: String) {
        let run = Invocation(arguments)
        #expect(run.status == 2)
        #expect(run.standardError == message)
    }
}
