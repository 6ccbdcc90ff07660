import Foundation
import QualityMetrics
import CaptureAnalysis
import TestSupport
import Testing

/// ``WiresharkRTPStreamStatistics`` against TShark 4.0 itself on every shared capture: tshark
/// dissects the packets (we only group and feed them), and its `-z rtp,streams` listing is the
/// expected answer. Dynamic payload types get their clock from the capture's SDP `a=rtpmap`
/// lines, taken per file (tshark learns them per conversation; the two agree on these files).
@Suite("Wireshark RTP stream statistics agree with tshark on the shared captures")
struct WiresharkCaptureAgreementTests {
    /// The captures without SIP/SDP, whose RTP tshark finds only with its `rtp_udp` heuristic
    /// (CATALOG.md).
    static let heuristicCaptures: Set<String> = [
        "sipp_g711a.pcap", "sipp_dtmf_2833_1.pcap", "srtp-decrypt_marseillaise-srtp_first1500.pcap",
        "ws_sip-tls13-g722-rtcp.pcap", "ndpi_rtp.pcapng",
    ]

    static var captureNames: [String] {
        ((try? Fixtures.allCaptures()) ?? []).map(\.lastPathComponent)
    }

    /// The parameterized test below lists the captures without throwing; this one fails loudly
    /// when they are missing, so that the agreement is never checked on no file at all.
    @Test func everyCatalogedCaptureIsPresent() throws {
        let names = Set(try Fixtures.allCaptures().map(\.lastPathComponent))
        #expect(names.isSuperset(of: Self.heuristicCaptures))
        #expect(names.count >= 10)
    }

    @Test(arguments: captureNames)
    func agreesWithTshark(captureName: String) throws {
        let file = try Fixtures.capture(captureName)
        let heuristic = Self.heuristicCaptures.contains(captureName)
        let expected = try WiresharkTshark.streams(file, heuristic: heuristic)
        let ours = WiresharkTshark.statistics(
            try WiresharkTshark.packets(file, heuristic: heuristic),
            payloads: try WiresharkTshark.payloadMap(file))
        try #require(!expected.isEmpty, "tshark lists no RTP stream in \(captureName)")
        #expect(Set(ours.keys) == Set(expected.map(\.key)))
        for row in expected {
            let statistics = try #require(ours[row.key], "no stream \(row.key)")
            let differences = WiresharkTshark.differences(statistics, row)
            #expect(differences.isEmpty, "\(captureName): \(differences.joined(separator: "; "))")
        }
    }
}
