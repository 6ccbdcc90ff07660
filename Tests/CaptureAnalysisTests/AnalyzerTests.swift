import Capture
import Foundation
import QualityMetrics
import CaptureAnalysis
import TestSupport
import Testing

/// `CaptureAnalyzer` on captures written for the purpose, where every answer is known.
@Suite("CaptureAnalyzer on synthetic captures")
struct AnalyzerTests {
    /// 20 ms PCMU packets 0…299 with 100 and 200…204 missing, 150 sent twice, 250 and 251
    /// swapped: RFC 3550 counts 300 expected, 6 lost, 1 duplicate and 1 out of order, while
    /// tshark's lost (expected − packets, duplicates included) is 5.
    @Test func lossesDuplicatesAndReorderingAreCountedBothWays() throws {
        var capture = try AnalyzerSyntheticCapture(name: "loss")
        let missing: Set<UInt16> = [100, 200, 201, 202, 203, 204]
        var order = Array(UInt16(0)..<300).filter { !missing.contains($0) }
        order.swapAt(order.firstIndex(of: 250) ?? 0, order.firstIndex(of: 251) ?? 0)
        order.insert(150, at: (order.firstIndex(of: 150) ?? 0) + 1)
        for (index, sequence) in order.enumerated() {
            try capture.writeRTP(sequence: sequence, timestamp: UInt32(sequence) * 160, at: Double(index) * 20)
        }
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        let stream = try #require(report.streams.first)
        #expect(report.streams.count == 1)
        #expect(stream.codec == "PCMU")
        #expect(stream.packets == 295)
        #expect(stream.expected == 300)
        #expect(stream.lost == 6)
        #expect(stream.duplicates == 1)
        #expect(stream.outOfOrder == 1)
        #expect(stream.wireshark.lost == 5)
        #expect(stream.wireshark.problems)
        // The timeline counts gaps when they are seen: 250, overtaken by 251, counts as lost
        // there and as late when it comes, like the duplicate.
        #expect(stream.timeline.reduce(0) { $0 + $1.lost } == 7)
        #expect(stream.timeline.reduce(0) { $0 + $1.late } == 2)
        #expect(stream.timeline.reduce(0) { $0 + $1.packets } == 295)
        #expect(stream.burstGap.metrics.burstDensity > 0)
        let quality = try #require(stream.quality)
        #expect(quality.codecKey == "g711-plc")
        #expect(abs(quality.packetLossPercent - 2) < 1e-9)
        #expect(quality.rFactor < 93.2 && quality.rFactor > 50)
    }

    /// A stream one packet a second for 1500 s: the timeline stays within its capacity by
    /// coarsening (600 buckets of 1 s → 375 of 4 s), and still counts every packet.
    @Test func timelineStaysBounded() throws {
        var capture = try AnalyzerSyntheticCapture(name: "long")
        for second in 0..<1500 {
            try capture.writeRTP(sequence: UInt16(second), timestamp: UInt32(second) * 8000, at: Double(second) * 1000)
        }
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        let stream = try #require(report.streams.first)
        #expect(stream.timeline.count <= CaptureAnalyzer.Configuration().timelineCapacity)
        #expect(stream.timeline.count == 375)
        #expect(stream.timeline.first?.durationSeconds == 4)
        #expect(stream.timeline.reduce(0) { $0 + $1.packets } == 1500)
    }

    /// SIP on a port other than 5060 announces a dynamic Opus type: the stream is found by SDP
    /// from its first packet, with the encoding name and 48 kHz clock.
    @Test func sdpNamesADynamicPayloadType() throws {
        var capture = try AnalyzerSyntheticCapture(name: "sdp")
        let sip =
            "INVITE sip:bob@example.com SIP/2.0\r\nContent-Type: application/sdp\r\n\r\n"
            + "v=0\r\no=- 1 1 IN IP4 192.0.2.2\r\ns=-\r\nc=IN IP4 192.0.2.2\r\nt=0 0\r\n"
            + "m=audio 50000 RTP/AVP 111 101\r\na=rtpmap:111 opus/48000/2\r\na=rtpmap:101 telephone-event/8000\r\n"
        try capture.write(
            Array(sip.utf8), at: 0,
            from: UDPEndpoint(address: .v4(IPv4Address(192, 0, 2, 9)), port: 5080),
            to: UDPEndpoint(address: .v4(IPv4Address(192, 0, 2, 2)), port: 5070))
        try capture.writeRTP(sequence: 7, timestamp: 960, at: 10, payloadType: 111)
        try capture.writeRTP(sequence: 8, timestamp: 1920, at: 30, payloadType: 111)
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        #expect(report.datagrams.sip == 1)
        #expect(report.datagrams.sdpMedia == 1)
        let stream = try #require(report.streams.first)
        #expect(stream.foundBy == .sdp)
        #expect(stream.packets == 2)
        #expect(stream.codec == "opus")
        #expect(stream.clockRateHertz == 48000)
    }

    /// UDP that is not RTP — DNS-like bytes, and version-2-looking datagrams whose sequence
    /// numbers jump about — is counted, never reported as a stream.
    @Test func nonRTPTrafficIsCountedNotReported() throws {
        var capture = try AnalyzerSyntheticCapture(name: "noise")
        var generator = SplitMix64(seed: 7)
        for index in 0..<200 {
            var payload = (0..<40).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if index.isMultiple(of: 2) { payload[0] = 0x80 }
            try capture.write(payload, at: Double(index) * 20)
        }
        try capture.write([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0], at: 5000)
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        #expect(report.streams.isEmpty)
        #expect(report.datagrams.total == 201)
        #expect(report.datagrams.rtp == 0)
        #expect(report.noStreamsExplanation?.contains("none RTP") == true)
    }

    /// A capture cut inside a record: the report says how far reading got and keeps the
    /// streams found before.
    @Test func truncatedCaptureReportsHowFarItGot() throws {
        var capture = try AnalyzerSyntheticCapture(name: "cut")
        for sequence in 0..<50 {
            try capture.writeRTP(sequence: UInt16(sequence), timestamp: UInt32(sequence) * 160, at: Double(sequence) * 20)
        }
        let path = try capture.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 100).write(to: URL(fileURLWithPath: path))
        let report = CaptureAnalyzer.analyzeFile(atPath: path)
        let error = try #require(report.error)
        #expect(error.contains("truncated"))
        #expect(error.contains("after 49 complete frames"))
        #expect(report.framesRead == 49)
        #expect(report.streams.first?.packets == 49)
    }

    /// Files that are not captures give one clear sentence and no streams.
    @Test func garbageAndMissingFilesSaySo() throws {
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-garbage-\(UUID().uuidString)")
        try Data("this is not a capture file at all".utf8).write(to: garbage)
        let report = CaptureAnalyzer.analyzeFile(atPath: garbage.path)
        #expect(report.error?.contains("is not a pcap or pcapng capture file") == true)
        #expect(report.streams.isEmpty)
        let missing = CaptureAnalyzer.analyzeFile(atPath: "/nonexistent/analyzer.pcap")
        #expect(missing.error == "capture file /nonexistent/analyzer.pcap not found")
    }

    /// A capture of a link type the frame decoder does not know (USER0, 147) is refused with
    /// that reason before anything is read.
    @Test func unknownLinkTypeSaysSo() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-user0-\(UUID().uuidString).pcap")
        var writer = try PcapWriter(path: url.path, linkType: LinkType(rawValue: 147))
        [UInt8](repeating: 0x80, count: 60).withUnsafeBytes {
            writer.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 0))
        }
        try writer.finish()
        let report = CaptureAnalyzer.analyzeFile(atPath: url.path)
        #expect(report.error?.contains("which the decoder does not support") == true)
        #expect(report.streams.isEmpty)
    }
}
