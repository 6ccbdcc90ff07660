import Foundation
import Testing
import TestSupport

@testable import MediabenchCLI

extension LiveNetworkTests {
    /// `mediabench webrtc` answering headless Chromium (Debian package `chromium`): the served
    /// page calls on load, records what it hears and posts it with its `getStats()`; a
    /// screenshot is taken over DevTools mid-call.
    @Suite struct WebRTCChromiumTests {
        /// Where the screenshot of the last run is kept, for a person to look at.
        static let screenshot = Fixtures.packageRoot.appendingPathComponent(".build/webrtc-chromium-call.png")

        @Test func chromiumCallsThePageAndBothSidesHearSpeech() throws {
            try ExternalTool.require("chromium")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webrtc-chromium-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let speech = try WebRTCAiortcTests.speech(in: directory)
            let engineHeard = directory.appendingPathComponent("engine-heard.wav").path
            let page = directory.appendingPathComponent("page")
            let port = Int.random(in: 30_000...59_000)
            let (engine, peer) = try WebRTCAiortcTests.call(
                engine: [
                    "webrtc", "--listen", "127.0.0.1:\(port)", "--input", speech, "--output", engineHeard,
                    "--duration", "20", "--page-results", page.path, "--format", "json",
                ],
                peer: [
                    "python3", WebRTCAiortcTests.scripts.appendingPathComponent("chromium_caller.py").path,
                    "--url", "http://127.0.0.1:\(port)", "--speech", speech, "--seconds", "18",
                    "--screenshot", Self.screenshot.path,
                ])
            #expect(engine.status == 0, "\(engine.standardError)")
            #expect(peer.status == 0, "chromium_caller.py: \(peer.standardError.suffix(2000))")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(engine.standardOutput.utf8)) as? [String: Any])
            let stats = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: page.appendingPathComponent("stats.json"))) as? [String: Any])
            print("webrtc/chromium engine summary: \(summary)\nchromium getStats: \(stats)\nscreenshot: \(Self.screenshot.path)")
            #expect(summary["srtp_suite"] as? String == "AEAD_AES_128_GCM")
            #expect((summary["rtp_received"] as? Int ?? 0) > 700)
            #expect((summary["rtcp_received"] as? Int ?? 0) > 0)
            #expect((summary["srtp_authentication_failures"] as? Int) == 0)
            #expect((stats["packetsReceived"] as? Int ?? 0) > 700)
            #expect(stats["srtpCipher"] as? String == "SRTP_AEAD_AES_128_GCM")
            #expect(stats["dtlsState"] as? String == "connected")
            let png = try Data(contentsOf: Self.screenshot)
            #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
            let heardByEngine = try WebRTCAiortcTests.pesq(reference: speech, degraded: engineHeard)
            let pageHeard = page.appendingPathComponent("heard.wav").path
            let heardByPage = try WebRTCAiortcTests.pesq(reference: speech, degraded: pageHeard)
            print("webrtc/chromium PESQ-WB: chromium→engine \(heardByEngine), engine→chromium \(heardByPage)")
            if heardByEngine < 3.0 || heardByPage < 3.0 {
                // Kept for a person to listen to: the temporary directory goes with the test.
                for (name, path) in [("engine-heard", engineHeard), ("page-heard", pageHeard)] {
                    let kept = Fixtures.packageRoot.appendingPathComponent(".build/webrtc-chromium-\(name).wav")
                    try? FileManager.default.removeItem(at: kept)
                    try? FileManager.default.copyItem(atPath: path, toPath: kept.path)
                    print("webrtc/chromium kept \(kept.path)")
                }
            }
            #expect(heardByEngine >= 3.0)
            #expect(heardByPage >= 3.0)
        }
    }
}
