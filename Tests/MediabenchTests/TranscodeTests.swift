import Foundation
import TestSupport
import Testing

/// `mediabench transcode`: its errors in process, and the listening-quality targets of issue 4
/// through the real binary and scripts/listening-quality/run.sh (espeak-ng speech, PyPI `pesq`).
@Suite struct TranscodeTests {
    @Test(arguments: [
        (["--codec", "g729"], 2, "--codec: expected pcmu, pcma or opus[:BITRATE], got 'g729'"),
        (["--codec", "opus:5"], 2, "--codec: Opus bitrate '5' is not a number from 6000 to 510000 bit/s"),
        (["--codec", "pcmu", "--fec"], 2, "--fec: G.711 has no forward error correction"),
        (["--codec", "pcmu", "--plc", "silence"], 2, "--plc"),
        (["--codec", "pcmu", "--input", "/nonexistent.wav"], 1, "/nonexistent.wav: "),
    ])
    func badArgumentsAndFilesAreNamed(arguments: [String], status: Int32, message: String) {
        var full = ["transcode", "--input", "in.wav", "--output", "/tmp/transcode-test-out.wav"] + arguments
        if arguments.contains("--input") { full.removeSubrange(1...2) }
        let run = Invocation(full)
        #expect(run.status == status)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    @Test func nonWAVInputIsRefusedWithTheReason() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-wav-\(UUID()).wav").path
        try Data("this is text, not RIFF".utf8).write(to: URL(fileURLWithPath: path))
        let run = Invocation(["transcode", "--codec", "pcma", "--input", path, "--output", path + ".out"])
        #expect(run.status == 1)
        #expect(run.standardError.hasPrefix("mediabench transcode: \(path): "))
    }

    /// The binary built beside this test bundle.
    private var mediabench: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mediabench").path
    }

    @Test func listeningQualityMeetsTheTargets() throws {
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/listening-quality/run.sh").path
        let output = try ExternalTool.run([script, mediabench]).standardOutput
        var scores: [String: Double] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2, let score = Double(fields[1]) { scores[String(fields[0])] = score }
        }
        let score = { (name: String) throws -> Double in try #require(scores[name], "no score for \(name) in:\n\(output)") }
        #expect(try score("pcmu-clean") >= 3.9)
        #expect(try score("pcma-clean") >= 3.9)
        #expect(try score("pcmu-loss5-appendix-i") > score("pcmu-loss5-repeat"))
        #expect(try score("pcmu-loss5-appendix-i") > score("pcmu-loss5-zero"))
        #expect(try score("opus24k-wb") >= 4.0)
        #expect(try score("opus24k-loss5-fec") > score("opus24k-loss5-plc"))
    }
}
