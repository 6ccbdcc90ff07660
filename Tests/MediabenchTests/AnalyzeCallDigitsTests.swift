import Foundation
import TestSupport
import Testing

extension LiveNetworkTests {
    /// `mediabench analyze` on the capture of a real `mediabench call` whose caller sends its
    /// digits as RFC 4733 events in place of audio: what the analyzer's listener heard holds
    /// the digits, as spandsp's DTMF receiver finds them, and the tones count as tones.
    @Suite struct AnalyzeCallDigitsTests {
        @Test func theAnalyzerHearsTheDigitsOfACapturedCall() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-call-\(UUID())")
            let wavDirectory = directory.appendingPathComponent("heard")
            try FileManager.default.createDirectory(at: wavDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let capture = directory.appendingPathComponent("wire.pcap").path
            let call = Invocation(["call", "--codec", "pcmu", "--duration", "3", "--dtmf", "159", "--capture", capture])
            #expect(call.status == 0, "\(call.standardError)")

            let run = Invocation(["analyze", "--format", "json", "--wav-dir", wavDirectory.path, capture])
            #expect(run.status == 0, "\(run.standardError)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            let streams = try #require((root["files"] as? [[String: Any]])?.first?["streams"] as? [[String: Any]])
            #expect(streams.count == 2)
            let detector = Fixtures.packageRoot.appendingPathComponent("scripts/listening-quality/detect_dtmf.py").path
            for stream in streams {
                let events = try #require(stream["dtmf_events"] as? [[String: Any]])
                let keys = events.compactMap { $0["key"] as? String }.joined()
                let path = try #require((stream["wav"] as? [String: Any])?["path"] as? String)
                let heard = try ExternalTool.run(["timeout", "30", "python3", detector, path]).standardOutput
                #expect(heard.trimmingCharacters(in: .whitespacesAndNewlines) == keys, "spandsp heard '\(heard)', sent '\(keys)'")
                let sent = events.compactMap { $0["duration_ms"] as? Double }.reduce(0, +)
                let buffer = try #require(stream["jitter_buffer"] as? [String: Any])
                let tones = try #require(buffer["tone_ms"] as? Double)
                #expect(abs(tones - sent) < 1, "tones \(tones) ms, events \(sent) ms")
            }
            #expect(streams.contains { ($0["dtmf_events"] as? [Any])?.count == 3 }, "the caller's stream has the digits")
        }
    }
}
