import Capture
import Foundation
import Testing
import TestSupport

/// Where tshark's `udp` filter and our UDP datagrams part ways, shown on a file we write: tshark
/// reassembles fragments (and shows the datagram on the last one) and dissects the UDP header
/// quoted in ICMP errors; we skip fragments and ICMP. ``SharedCaptureTests/udpFilter`` makes the
/// two definitions agree.
@Suite("Fragments and ICMP: our count against tshark's")
struct FragmentCountingTests {
    @Test func definitionsAgreeUnderTheSharedFilter() throws {
        let whole = try TestFrames.ethernetIPv4()
        let frames = [whole] + (try Self.ipv4Fragments()) + (try Self.ipv6Fragments()) + [try Self.icmpQuotingUDP()]
        let scratch = try ScratchDirectory()
        let path = scratch.path("fragments.pcap")
        var writer = try PcapWriter(path: path, linkType: .ethernet)
        for (index, frame) in frames.enumerated() {
            frame.withUnsafeBytes { writer.write($0, timestamp: CaptureTimestamp(seconds: Int64(index), nanoseconds: 0)) }
        }
        try writer.finish()

        var reader = try CaptureReader(path: path)
        var statistics = CaptureStatistics()
        try reader.forEachUDPDatagram(counting: &statistics) { _ in }
        #expect(statistics.udpDatagrams == 1)
        #expect(statistics.fragments == 4)
        #expect(statistics.notUDP == 1)

        func tsharkCount(_ filter: String) throws -> Int {
            try ExternalTool.run(["tshark", "-n", "-r", path, "-Y", filter]).standardOutput.split(separator: "\n").count
        }
        // The whole datagram, each reassembled datagram on its last fragment, and the ICMP error.
        #expect(try tsharkCount("udp") == 4)
        #expect(try tsharkCount(SharedCaptureTests.udpFilter) == statistics.udpDatagrams)
    }

    /// The test IPv4 datagram in two fragments: 96 bytes of UDP segment with MF, then the rest.
    static func ipv4Fragments() throws -> [[UInt8]] {
        let packet = try TestFrames.ipv4Packet()
        let ethernet = Array(try TestFrames.ethernetIPv4().prefix(14))
        let segment = Array(packet.dropFirst(20))
        func fragment(_ part: ArraySlice<UInt8>, offsetUnits: UInt16, more: Bool) -> [UInt8] {
            var header = Array(packet.prefix(20))
            header.replaceSubrange(2..<4, with: TestFrames.bigEndian(UInt16(20 + part.count)))
            header.replaceSubrange(4..<6, with: [0x12, 0x34])  // identification
            header.replaceSubrange(6..<8, with: TestFrames.bigEndian((more ? 0x2000 : 0) | offsetUnits))
            return ethernet + header + part
        }
        return [fragment(segment[..<96], offsetUnits: 0, more: true), fragment(segment[96...], offsetUnits: 12, more: false)]
    }

    /// The test IPv6 datagram in two fragments behind fragment headers.
    static func ipv6Fragments() throws -> [[UInt8]] {
        let packet = try TestFrames.ipv6Packet()
        let ethernet = Array(try TestFrames.ethernetIPv6().prefix(14))
        let segment = Array(packet.dropFirst(40))
        func fragment(_ part: ArraySlice<UInt8>, offsetUnits: UInt16, more: Bool) -> [UInt8] {
            var header = Array(packet.prefix(40))
            header.replaceSubrange(4..<6, with: TestFrames.bigEndian(UInt16(8 + part.count)))
            header[6] = 44
            let fragmentHeader: [UInt8] = [17, 0] + TestFrames.bigEndian(offsetUnits << 3 | (more ? 1 : 0)) + [0, 0, 0x56, 0x78]
            return ethernet + header + fragmentHeader + part
        }
        return [fragment(segment[..<96], offsetUnits: 0, more: true), fragment(segment[96...], offsetUnits: 12, more: false)]
    }

    /// An ICMP port-unreachable error quoting the test datagram's IPv4 header and UDP header.
    static func icmpQuotingUDP() throws -> [UInt8] {
        let quoted = Array(try TestFrames.ipv4Packet().prefix(28))
        var packet = Array(try TestFrames.ipv4Packet().prefix(20))
        packet.replaceSubrange(2..<4, with: TestFrames.bigEndian(UInt16(20 + 8 + quoted.count)))
        packet[9] = 1  // ICMP
        packet += [3, 3, 0, 0, 0, 0, 0, 0] + quoted
        return Array(try TestFrames.ethernetIPv4().prefix(14)) + packet
    }
}
