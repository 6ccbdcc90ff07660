import Foundation
import TestSupport
import Testing

/// `mediabench analyze`, run in process.
@Suite("mediabench analyze")
struct AnalyzeCommandTests {
    private func capture(_ name: String) throws -> String {
        try Fixtures.capture(name).path
    }

    /// The report JSON of DESIGN.md: tool (name, version, options) and one entry per file with
    /// its streams, keys in snake_case with units.
    @Test func jsonHasTheDesignedShape() throws {
        let run = Invocation(["analyze", "--format", "json", try capture("ws_SIP_DTMF2.pcap")])
        #expect(run.status == 0, "\(run.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let tool = try #require(root["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "mediabench")
        #expect(tool["version"] is String)
        #expect((tool["options"] as? [String: String])?["format"] == "json")
        let files = try #require(root["files"] as? [[String: Any]])
        let streams = try #require(files.first?["streams"] as? [[String: Any]])
        #expect(streams.count == 2)
        let lossy = try #require(streams.first { ($0["ssrc"] as? NSNumber)?.uint32Value == 0x9A7B_5382 })
        for key in [
            "source_address", "source_port", "destination_address", "destination_port", "codec", "packets",
            "lost", "expected", "duplicates", "out_of_order", "jitter_ms", "rtt_ms", "r_factor", "mos_cqe",
            "wireshark", "burst_gap", "dtmf_events", "timeline", "jitter_buffer",
        ] {
            #expect(lossy.keys.contains(key), "missing key \(key)")
        }
        #expect(lossy["lost"] as? Int == 2)
        #expect(lossy["rtt_ms"] is NSNull)
        let wireshark = try #require(lossy["wireshark"] as? [String: Any])
        #expect(wireshark["delta_ms_max"] as? Double ?? 0 > 60)
        #expect(wireshark["problems"] as? Bool == true)
        let buffer = try #require(lossy["jitter_buffer"] as? [String: Any])
        for key in [
            "audio_decoded", "mean_delay_ms", "p50_delay_ms", "p95_delay_ms", "p99_delay_ms", "network_loss_percent",
            "late_loss_percent", "effective_loss_percent", "concealment_percent", "concealment_events",
            "interruptions", "time_stretch_percent", "tone_ms",
        ] {
            #expect(buffer.keys.contains(key), "missing jitter_buffer key \(key)")
        }
        #expect(buffer["audio_decoded"] as? Bool == true)
        let effective = try #require(buffer["effective_loss_percent"] as? Double)
        let network = try #require(buffer["network_loss_percent"] as? Double)
        #expect(effective >= network && network > 0.29 && network < 0.31)
        #expect(try #require(buffer["p95_delay_ms"] as? Double) >= (try #require(buffer["p50_delay_ms"] as? Double)))
        #expect(lossy["wav"] is NSNull)
    }

    @Test func csvHasOneRowPerStream() throws {
        let run = Invocation(["analyze", "--format", "csv", try capture("ws_sip-rtp-g711.pcap"), try capture("sipp_g711a.pcap")])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 1 + 3)
        #expect(lines.first?.hasPrefix("file,ssrc,source_address") == true)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 40 })
        #expect(lines.first?.hasSuffix(",jb_time_stretch_percent,jb_audio_decoded") == true)
    }

    @Test func textNamesEveryStream() throws {
        let run = Invocation(["analyze", try capture("ws_MagicJack_short_call.pcap")])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("SSRC 0x2A173650"))
        #expect(run.standardOutput.contains("SSRC 0x31BE1E0E"))
        #expect(run.standardOutput.contains("wireshark    lost 0"))
    }

    /// Parallel jobs give the same report, in the order the files were given.
    @Test func jobsKeepInputOrder() throws {
        let files = try ["ws_sip-rtp-opus.pcap", "sipp_g711a.pcap", "ws_sip-rtp-g722.pcap", "ndpi_rtp.pcapng"].map(capture)
        let serial = Invocation(["analyze", "--format", "csv"] + files)
        let parallel = Invocation(["analyze", "--format", "csv", "--jobs", "3"] + files)
        #expect(serial.status == 0 && parallel.status == 0)
        #expect(serial.standardOutput == parallel.standardOutput)
    }

    /// `--replay-threads` changes nothing in the report: the replays on the reading thread (1)
    /// and on three threads (two workers beside it) give the same JSON.
    @Test func replayThreadsGiveTheSameReport() throws {
        let files = try ["ws_SIP_DTMF2.pcap", "baresip-srtp-srtcp.pcap"].map(capture)
        let sequential = Invocation(["analyze", "--format", "json", "--replay-threads", "1"] + files)
        let parallel = Invocation(["analyze", "--format", "json", "--replay-threads", "3"] + files)
        #expect(sequential.status == 0 && parallel.status == 0)
        #expect(sequential.standardOutput.contains("\"jitter_buffer\""))
        #expect(sequential.standardOutput == parallel.standardOutput)
    }

    /// A file that is not a capture: a clear message and exit status 1; the other files are
    /// still reported.
    @Test func badFilesGiveClearMessages() throws {
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-garbage-\(UUID().uuidString).pcap")
        try Data(repeating: 0x41, count: 100).write(to: garbage)
        let run = Invocation(["analyze", garbage.path, try capture("sipp_g711a.pcap")])
        #expect(run.status == 1)
        #expect(run.standardError.contains("is not a pcap or pcapng capture file"))
        #expect(run.standardOutput.contains("SSRC 0xDEE0EE8F"))
    }

    @Test func writesToOutputFile() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-\(UUID().uuidString).html")
        let run = Invocation(["analyze", "--format", "html", "--output", output.path, try capture("sipp_g711a.pcap")])
        #expect(run.status == 0)
        #expect(run.standardOutput.isEmpty)
        let html = try String(contentsOf: output, encoding: .utf8)
        #expect(html.contains("<svg"))
    }

    /// `--srtp-key SSRC:BASE64` decrypts the SRTP capture; malformed keys are usage errors
    /// whose message never repeats the key.
    @Test func srtpKeyOption() throws {
        let file = try capture("srtp-decrypt_marseillaise-srtp_first1500.pcap")
        let run = Invocation(["analyze", "--format", "csv", "--srtp-key", "0xDEADBEEF:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz", file])
        #expect(run.status == 0, "\(run.standardError)")
        let json = Invocation(["analyze", "--format", "json", "--srtp-key", "*:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz", file])
        #expect(json.standardOutput.contains("\"decrypted\" : 1500"))
        let suite = Invocation([
            "analyze", "--format", "jsonl", "--srtp-key",
            "0xDEADBEEF:AES_CM_128_HMAC_SHA1_80:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz", file,
        ])
        #expect(suite.status == 0, "\(suite.standardError)")
        #expect(suite.standardOutput.split(separator: "\n").count == 1)
        #expect(suite.standardOutput.contains("\"srtp_suite\":\"AES_CM_128_HMAC_SHA1_80\""))
        #expect(suite.standardOutput.contains("\"srtp_decrypted\":1500"))
        #expect(suite.standardOutput.contains("\"audio_decoded\":true"))
        let text = Invocation(["analyze", "--srtp-key", "0xDEADBEEF:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz", file])
        #expect(text.standardOutput.contains("SRTP AES_CM_128_HMAC_SHA1_80"))
        for bad in [
            "*:aSBrbm93", "nonsense", "0xZZ:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz", "*:%%%",
            "*:AES_CM_999:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz",
            "*:AES_256_CM_HMAC_SHA1_80:aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz",
        ] {
            let refused = Invocation(["analyze", "--srtp-key", bad, file])
            #expect(refused.status == 2, "\(bad)")
            #expect(refused.standardError.contains("--srtp-key"))
            #expect(!refused.standardError.contains("aSBrbm93"))
        }
    }

    /// `--wav-dir` writes one WAV per decodable stream, names each stream it skips and why, and
    /// refuses a folder that does not exist; `--no-jitter-replay` leaves `jitter_buffer` null.
    @Test func wavDirectoryAndReplaySwitch() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = Invocation(["analyze", "--wav-dir", directory.path, try capture("sipp_g711a.pcap"), try capture("ws_sip-rtp-g722.pcap")])
        #expect(run.status == 0, "\(run.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(written == ["sipp_g711a-DEE0EE8F-10.1.3.143_5000-10.1.6.18_2006.wav"])
        #expect(run.standardError.contains("SSRC 0x043DAABA: no WAV: G722 cannot be decoded"))
        #expect(run.standardOutput.contains("our buffer   delay"))

        let missing = directory.appendingPathComponent("absent").path
        let refused = Invocation(["analyze", "--wav-dir", missing, try capture("sipp_g711a.pcap")])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(missing))

        let conflicting = Invocation(["analyze", "--wav-dir", directory.path, "--no-jitter-replay", try capture("sipp_g711a.pcap")])
        #expect(conflicting.status == 2)

        let off = Invocation(["analyze", "--format", "json", "--no-jitter-replay", try capture("sipp_g711a.pcap")])
        #expect(off.status == 0)
        #expect(off.standardOutput.contains("\"jitter_buffer\" : null"))
    }
}
