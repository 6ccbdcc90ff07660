import Foundation
import QualityMetrics
import CaptureAnalysis
import RTP
import TestSupport
import Testing

/// `CaptureAnalyzer` against TShark 4.0 on every shared capture, through the report JSON that
/// `mediabench analyze --format json` prints: the analyzer dissects the file itself (SIP/SDP,
/// heuristics, RTP), and must find exactly tshark's `-z rtp,streams` streams with the same
/// packets and lost, and delta and jitter min/mean/max within 0.001 ms.
@Suite("CaptureAnalyzer agrees with tshark on the shared captures")
struct AnalyzerAgreementTests {
    /// Captures where Linphone sends STUN on its RTP port: tshark then dissects the stream it
    /// receives on that port pair as STUN and lists only the other one, while the analyzer
    /// finds both from the SDP. Only tshark's streams are compared there.
    static let stunSharedPorts: Set<String> = ["linphone-srtp-sha1-32.pcap"]

    @Test(arguments: WiresharkCaptureAgreementTests.captureNames)
    func reportJSONAgreesWithTshark(captureName: String) throws {
        let file = try Fixtures.capture(captureName)
        let heuristic = WiresharkCaptureAgreementTests.heuristicCaptures.contains(captureName)
        let expected = try WiresharkTshark.streams(file, heuristic: heuristic)
        try #require(!expected.isEmpty, "tshark lists no RTP stream in \(captureName)")

        let report = AnalysisReport(
            tool: ToolInfo(name: "test", version: "0", options: [:]),
            files: [CaptureAnalyzer.analyzeFile(atPath: file.path)])
        let ours = try AnalyzerJSON.streams(in: try report.json())
        if Self.stunSharedPorts.contains(captureName) {
            #expect(Set(ours.keys).isSuperset(of: expected.map(\.key)), "\(captureName): streams differ")
        } else {
            #expect(Set(ours.keys) == Set(expected.map(\.key)), "\(captureName): streams differ")
        }
        for row in expected {
            let stream = try #require(ours[row.key], "\(captureName): no stream \(row.key)")
            let differences = AnalyzerJSON.differences(stream, row)
            #expect(differences.isEmpty, "\(captureName): \(differences.joined(separator: "; "))")
        }
    }

    /// The RTCP of the FreeSWITCH call: CATALOG.md's round trips (frame time of each RR minus
    /// that of the SR it echoes minus DLSR: 7.998/8.093/8.168 ms over 17 RRs) and the far
    /// end's cumulative loss of 1.
    @Test func roundTripFromRTCPMatchesTheCatalog() throws {
        let report = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture("ws_sip-tls13-g722-rtcp.pcap").path)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x5D93_1534 })
        let rtcp = try #require(stream.rtcp)
        #expect(rtcp.roundTripMilliseconds.count == 17)
        #expect(abs(rtcp.roundTripMilliseconds.minimum - 7.998) < 0.001)
        #expect(abs(rtcp.roundTripMilliseconds.mean - 8.093) < 0.001)
        #expect(abs(rtcp.roundTripMilliseconds.maximum - 8.168) < 0.001)
        #expect(rtcp.lastCumulativeLost == 1)
        #expect(report.datagrams.rtcp == 92)
    }

    /// RFC 3550 and Wireshark disagree on duplicates, and the report carries both: the
    /// telephone-event capture repeats its end packet twice, so tshark's "lost" is −2 while
    /// RFC 3550 counts 8 expected, 2 duplicates and nothing lost.
    @Test func duplicatesAreReportedBothWays() throws {
        let report = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture("sipp_dtmf_2833_1.pcap").path)
        let stream = try #require(report.streams.first)
        #expect(stream.packets == 10)
        #expect(stream.expected == 8)
        #expect(stream.duplicates == 2)
        #expect(stream.lost == 0)
        #expect(stream.wireshark.lost == -2)
    }

    /// The SIP call with RFC 2833 digits: the SDP names the dynamic event type, and the
    /// analyzer reports the seven key presses in order.
    @Test func keyPressesOfTheSIPCall() throws {
        let report = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture("ws_SIP_DTMF2.pcap").path)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x5711_BF84 })
        #expect(stream.dtmfEvents.map(\.key).joined() == "6789123")
        #expect(stream.dtmfEvents.allSatisfy { $0.endReceived })
        #expect(stream.foundBy == .sdp)
        #expect(stream.encodingNames == ["PCMA", "telephone-event"])
    }
}

/// Reads the report JSON back, as a user's script would, keyed like tshark's rows.
enum AnalyzerJSON {
    typealias Stream = [String: Any]

    static func streams(in json: String) throws -> [WiresharkTshark.StreamKey: Stream] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try #require(root["files"] as? [[String: Any]])
        var streams: [WiresharkTshark.StreamKey: Stream] = [:]
        for file in files {
            for stream in try #require(file["streams"] as? [Stream]) {
                let key = WiresharkTshark.StreamKey(
                    source: try #require(stream["source_address"] as? String),
                    sourcePort: try #require((stream["source_port"] as? NSNumber)?.uint16Value),
                    destination: try #require(stream["destination_address"] as? String),
                    destinationPort: try #require((stream["destination_port"] as? NSNumber)?.uint16Value),
                    ssrc: try #require((stream["ssrc"] as? NSNumber)?.uint32Value))
                streams[key] = stream
            }
        }
        return streams
    }

    /// One sentence per figure that differs from tshark's row (empty when all agree).
    static func differences(_ stream: Stream, _ row: WiresharkTshark.StreamRow) -> [String] {
        guard let wireshark = stream["wireshark"] as? [String: Any] else { return ["no wireshark object"] }
        var found: [String] = []
        func number(_ object: [String: Any], _ key: String) -> Double {
            (object[key] as? NSNumber)?.doubleValue ?? .nan
        }
        if number(stream, "packets") != Double(row.packets) {
            found.append("packets: ours \(number(stream, "packets")), tshark \(row.packets)")
        }
        if number(wireshark, "lost") != Double(row.lost) {
            found.append("lost: ours \(number(wireshark, "lost")), tshark \(row.lost)")
        }
        let figures: [(String, Double)] = [
            ("delta_ms_min", row.delta.minimum), ("delta_ms_mean", row.delta.mean), ("delta_ms_max", row.delta.maximum),
            ("jitter_ms_min", row.jitter.minimum), ("jitter_ms_mean", row.jitter.mean), ("jitter_ms_max", row.jitter.maximum),
        ]
        for (key, theirs) in figures where !(abs(number(wireshark, key) - theirs) <= 0.001) {
            found.append("\(key): ours \(number(wireshark, key)), tshark \(theirs)")
        }
        if (wireshark["problems"] as? Bool) != row.hasProblems {
            found.append("problems: ours \(String(describing: wireshark["problems"])), tshark \(row.hasProblems)")
        }
        return found.map { "\(row.key): \($0)" }
    }
}

/// SRTP: the marseillaise capture decrypts fully under its catalogued SDES key (1500 packets,
/// AES_CM_128_HMAC_SHA1_80), and a wrong key is reported as authentication failures while the
/// clear-text headers are analysed all the same.
@Suite("CaptureAnalyzer decrypts SRTP")
struct AnalyzerSRTPTests {
    static let keyAndSalt = Array("i know all your little secrets".utf8)

    private func analyze(key: [UInt8], ssrc: UInt32?) throws -> StreamReport {
        var configuration = CaptureAnalyzer.Configuration()
        configuration.srtpKeys = [
            SRTPKeyAssignment(
                ssrc: ssrc, key: try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: key))
        ]
        let path = try Fixtures.capture("srtp-decrypt_marseillaise-srtp_first1500.pcap").path
        let report = CaptureAnalyzer.analyzeFile(atPath: path, configuration: configuration)
        try #require(report.streams.count == 1)
        return report.streams[0]
    }

    @Test func givenKeyDecryptsEveryPacket() throws {
        let stream = try analyze(key: Self.keyAndSalt, ssrc: 0xDEAD_BEEF)
        let srtp = try #require(stream.srtp)
        #expect(stream.foundBy == .srtpKey)
        #expect(srtp.decrypted == 1500)
        #expect(srtp.authenticationFailures == 0 && srtp.replays == 0 && srtp.otherFailures == 0)
        #expect(srtp.keySource == .given)
        #expect(stream.packets == 1500)
    }

    @Test func wrongKeyFailsAuthenticationButKeepsTheStream() throws {
        var wrong = Self.keyAndSalt
        wrong[0] ^= 1
        let stream = try analyze(key: wrong, ssrc: nil)
        let srtp = try #require(stream.srtp)
        #expect(stream.foundBy == .heuristic)
        #expect(stream.packets == 1500)
        #expect(srtp.decrypted == 0)
        #expect(srtp.authenticationFailures == 1500 - 3)
    }
}
