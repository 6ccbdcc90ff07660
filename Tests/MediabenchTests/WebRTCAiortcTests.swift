import BenchmarkHarness
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import MediabenchCLI

extension LiveNetworkTests {
    /// `mediabench webrtc` answering aiortc (a real WebRTC peer: ICE, DTLS-SRTP, Opus) on
    /// loopback: speech both ways scored with PESQ-WB, DTMF, RTCP; and a forged fingerprint.
    @Suite struct WebRTCAiortcTests {
        static let scripts = Fixtures.packageRoot.appendingPathComponent("scripts/webrtc")

        /// espeak-ng speech after 2 s of silence (the digits go into the silence), 48 kHz 16-bit mono.
        static func speech(in directory: URL) throws -> String {
            let raw = directory.appendingPathComponent("raw.wav").path
            let resampled = directory.appendingPathComponent("raw48.wav").path
            let silence = directory.appendingPathComponent("silence.wav").path
            let speech = directory.appendingPathComponent("speech.wav").path
            try ExternalTool.run([
                "timeout", "30", "espeak-ng", "-w", raw,
                "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. "
                    + "It is easy to tell the depth of a well. These days a chicken leg is a rare dish.",
            ])
            try ExternalTool.run(["timeout", "30", "sox", "-n", "-r", "48000", "-c", "1", "-b", "16", silence, "trim", "0", "2"])
            try ExternalTool.run(["timeout", "30", "sox", raw, "-r", "48000", "-b", "16", resampled])
            try ExternalTool.run(["timeout", "30", "sox", silence, resampled, speech])
            return speech
        }

        /// Runs the engine's command on a thread while `peer` runs; returns both outputs.
        static func call(engine arguments: [String], peer: [String]) throws -> (Invocation, Subprocess.Output) {
            let engine = Mutex<Invocation?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let invocation = Invocation(arguments)
                engine.withLock { $0 = invocation }
                done.signal()
            }.start()
            Thread.sleep(forTimeInterval: 1)
            let output = try Subprocess.run(searchingPath: ["timeout", "90"] + peer)
            // The engine gives a page 45 s after the call to post its result: wait longer than
            // that, so that a late page ends in the engine's own message, not in a timeout here.
            #expect(done.wait(timeout: .now() + 60) == .success, "the engine's call ended")
            return (try #require(engine.withLock { $0 }), output)
        }

        static func pesq(reference: String, degraded: String) throws -> Double {
            let output = try ExternalTool.run(["timeout", "60", "python3", scripts.appendingPathComponent("pesq_aligned.py").path, reference, degraded])
            let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
            return try #require(object?["pesq_wb"] as? Double)
        }

        @Test func twentySecondCallWithAiortcCarriesSpeechDTMFAndRTCPBothWays() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webrtc-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let speech = try Self.speech(in: directory)
            let engineHeard = directory.appendingPathComponent("engine-heard.wav").path
            let peerHeard = directory.appendingPathComponent("aiortc-heard.wav").path
            let port = Int.random(in: 30_000...59_000)
            let (engine, peer) = try Self.call(
                engine: [
                    "webrtc", "--listen", "127.0.0.1:\(port)", "--input", speech, "--output", engineHeard,
                    "--duration", "20", "--dtmf", "159", "--format", "json",
                ],
                peer: [
                    "python3", Self.scripts.appendingPathComponent("aiortc_offerer.py").path, "--url", "http://127.0.0.1:\(port)",
                    "--speech", speech, "--heard", peerHeard, "--seconds", "22", "--dtmf", "47",
                ])
            #expect(engine.status == 0, "\(engine.standardError)")
            #expect(peer.status == 0, "aiortc (pip package aiortc) failed: \(peer.standardError.suffix(2000))")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(engine.standardOutput.utf8)) as? [String: Any])
            let stats = try #require(try JSONSerialization.jsonObject(with: Data(peer.standardOutput.utf8)) as? [String: Any])
            print("webrtc/aiortc engine summary: \(summary)\naiortc stats: \(stats)")
            #expect(summary["srtp_suite"] as? String == "AEAD_AES_128_GCM")
            #expect(summary["dtls_role"] as? String == "server")
            #expect(summary["dtmf_received"] as? String == "47", "each digit exactly once")
            // aiortc's MediaPlayer stops sending at the end of the file (about 11 s of it).
            #expect((summary["rtp_received"] as? Int ?? 0) > 450)
            #expect((summary["rtcp_received"] as? Int ?? 0) > 0)
            #expect((summary["srtp_authentication_failures"] as? Int) == 0)
            #expect(summary["rtt_ms"] != nil, "our RTCP came back in the peer's reports")
            #expect((stats["inbound_packets"] as? Int ?? 0) > 900)
            #expect(stats["rtcp_rr_received"] as? Bool == true && stats["rtcp_sr_received"] as? Bool == true, "aiortc got our RTCP")
            let heardByEngine = try Self.pesq(reference: speech, degraded: engineHeard)
            let heardByPeer = try Self.pesq(reference: speech, degraded: peerHeard)
            print("webrtc/aiortc PESQ-WB: aiortc→engine \(heardByEngine), engine→aiortc \(heardByPeer)")
            #expect(heardByEngine >= 3.5)
            #expect(heardByPeer >= 3.5)
        }

        @Test func forgedFingerprintEndsTheCallWithAClearReason() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webrtc-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let speech = try Self.speech(in: directory)
            let port = Int.random(in: 30_000...59_000)
            let (engine, _) = try Self.call(
                engine: ["webrtc", "--listen", "127.0.0.1:\(port)", "--format", "json"],
                peer: [
                    "python3", Self.scripts.appendingPathComponent("aiortc_offerer.py").path, "--url", "http://127.0.0.1:\(port)",
                    "--speech", speech, "--heard", directory.appendingPathComponent("heard.wav").path, "--seconds", "4",
                    "--wrong-fingerprint",
                ])
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(engine.standardOutput.utf8)) as? [String: Any])
            let state = summary["final_state"] as? String ?? ""
            #expect(state.contains("fingerprint") && state.contains("does not match"), "\(state)")
            #expect(summary["rtp_received"] as? Int == 0)
        }
    }
}
