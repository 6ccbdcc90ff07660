import Foundation
import Testing
import TestSupport
import RTP

/// RTT from LSR/DLSR on FreeSWITCH's real RTCP, against the figures in captures/CATALOG.md.
@Suite("RTT from a real capture")
struct RoundTripCaptureTests {
    @Test("ws_sip-tls13-g722-rtcp.pcap: 17 RTTs, 7.998 / 8.093 / 8.168 ms (min / mean / max)")
    func freeSwitchRoundTrips() throws {
        let capture = try Fixtures.capture("ws_sip-tls13-g722-rtcp.pcap")
        let rows = try TShark.fields(
            capture, options: ["--enable-heuristic", "rtcp_udp", "-Y", "rtcp.version == 2 && !icmp"],
            fields: ["frame.time_epoch", "udp.payload"])
        // The NTP time of each SR, keyed by its middle 32 bits, with the time the capture saw it.
        var senderReports: [UInt32: (ntp: NTPTimestamp, seen: MediaTime)] = [:]
        var roundTrips: [MediaTime] = []
        for row in rows {
            let seen = MediaTime(seconds: try #require(Double(row[0])))
            let bytes = hexBytes(row[1])
            try bytes.withUnsafeBytes { raw in
                for packet in try RTCPCompoundPacket(raw) {
                    switch packet {
                    case .senderReport(let report):
                        let ntp = report.senderInfo.ntpTimestamp
                        senderReports[ntp.middle32] = (ntp, seen)
                        try collect(report.reportBlocks)
                    case .receiverReport(let report):
                        try collect(report.reportBlocks)
                    default:
                        break
                    }
                }
            }
            // A report block arrived at `seen`: on the SR sender's clock that is its SR's NTP
            // time plus the time the capture saw pass between the two.
            func collect(_ blocks: RTCPReportBlocks) throws {
                for block in blocks where block.lastSenderReport != 0 {
                    let echoed = try #require(senderReports[block.lastSenderReport])
                    let arrival = NTPTimestamp(unixTime: echoed.ntp.unixTime + (seen - echoed.seen))
                    roundTrips.append(try #require(block.roundTripTime(arrival: arrival)))
                }
            }
        }
        let milliseconds = roundTrips.map(\.milliseconds)
        #expect(milliseconds.count == 17)
        let mean = milliseconds.reduce(0, +) / Double(milliseconds.count)
        // Compact NTP has a 1/65536 s (15 µs) grain; CATALOG.md's figures use exact frame times.
        #expect(abs((milliseconds.min() ?? 0) - 7.998) < 0.03)
        #expect(abs(mean - 8.093) < 0.03)
        #expect(abs((milliseconds.max() ?? 0) - 8.168) < 0.03)
        #expect(abs((milliseconds.first ?? 0) - 8.168) < 0.03)
    }
}
