import Capture
import Foundation
import Testing
import TestSupport

/// Every capture in `Tests/Fixtures/captures` against tshark, frame by frame.
@Suite("Shared captures against tshark")
struct SharedCaptureTests {
    /// tshark's `udp` also matches the UDP header quoted inside ICMP errors and, with IP reassembly
    /// on, the last fragment of a reassembled datagram; we report neither (the first is ICMP, the
    /// second a fragment). This filter makes the two definitions the same: a frame whose own
    /// IP packet is an unfragmented UDP datagram.
    static let udpFilter = "udp && !icmp && !icmpv6 && !(ip.flags.mf == 1) && !(ip.frag_offset > 0) && !ipv6.fraghdr"

    /// The fields compared per datagram, in tshark's `-T fields` order.
    static let fields = [
        "frame.number", "frame.time_epoch", "ip.src", "ipv6.src", "udp.srcport",
        "ip.dst", "ipv6.dst", "udp.dstport", "udp.length",
    ]

    @Test(arguments: try Fixtures.allCaptures())
    func everyUDPDatagramIsFound(capture: URL) throws {
        var reader = try CaptureReader(path: capture.path)
        var statistics = CaptureStatistics()
        var ours: [String] = []
        try reader.forEachUDPDatagram(counting: &statistics) { datagram in
            ours.append(Self.fieldLine(datagram))
        }
        let theirs = try Self.tsharkLines(capture)
        #expect(!theirs.isEmpty, "every shared capture carries UDP")
        #expect(statistics.udpDatagrams == theirs.count, "\(capture.lastPathComponent): \(statistics)")
        #expect(ours == theirs)
        let frameCount = try ExternalTool.run(["tshark", "-n", "-r", capture.path]).standardOutput
            .split(separator: "\n").count
        #expect(statistics.frames == frameCount)
        #expect(statistics.malformedIPv4 + statistics.malformedIPv6 + statistics.malformedUDP + statistics.truncated == 0)
    }

    /// The link types of the shared files, which cover Ethernet, VLAN and Linux cooked capture.
    @Test func linkTypesAreReported() throws {
        var ethernet = try CaptureReader(path: try Fixtures.capture("ndpi_rtp.pcapng").path)
        #expect(ethernet.linkType == .ethernet)
        #expect(ethernet.snapshotLength > 0)
        let cooked = try CaptureReader(path: try Fixtures.capture("ws_sip-tls13-g722-rtcp.pcap").path)
        #expect(cooked.linkType == .linuxSLL)
        let first = try #require(try ethernet.nextFrame())
        #expect(first.number == 1)
        #expect(ethernet.framesRead == 1)
    }

    private static func tsharkLines(_ capture: URL) throws -> [String] {
        let arguments =
            ["tshark", "-n", "-r", capture.path, "-Y", udpFilter, "-T", "fields", "-E", "occurrence=f"]
            + fields.flatMap { ["-e", $0] }
        return try ExternalTool.run(arguments).standardOutput.split(separator: "\n").map { line in
            // Merge the IPv4 and IPv6 address columns, one of which is empty.
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return [
                columns[0], columns[1], columns[2] + columns[3], columns[4], columns[5] + columns[6],
                columns[7], columns[8],
            ].joined(separator: "\t")
        }
    }

    private static func fieldLine(_ datagram: UDPDatagram) -> String {
        [
            "\(datagram.frameNumber)", "\(datagram.timestamp)", "\(datagram.source.address)",
            "\(datagram.source.port)", "\(datagram.destination.address)", "\(datagram.destination.port)",
            "\(datagram.declaredPayloadLength + 8)",
        ].joined(separator: "\t")
    }
}
