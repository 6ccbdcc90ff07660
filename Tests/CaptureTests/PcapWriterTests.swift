import Capture
import Foundation
import Testing
import TestSupport

@Suite("Pcap writer and frame builder against tshark")
struct PcapWriterTests {
    /// Frames alternating IPv4 and IPv6, payloads of 0 to 1400 bytes, timestamps with nanoseconds.
    static func records() throws -> [CaptureRecord] {
        let sizes = [0, 1, 12, 160, 172, 333, 1400]
        return try (0..<28).map { index in
            let payload = (0..<sizes[index % sizes.count]).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            let (source, destination) =
                index.isMultiple(of: 2)
                ? (TestFrames.ipv4Source, TestFrames.ipv4Destination)
                : (TestFrames.ipv6Source, TestFrames.ipv6Destination)
            let sourcePort = UDPEndpoint(address: source.address, port: source.port &+ UInt16(index))
            let frame = try UDPFrameBuilder.ethernetFrame(from: sourcePort, to: destination, payload: payload)
            let timestamp = CaptureTimestamp(seconds: 1_700_000_000 + Int64(index), nanoseconds: 123_456_789 + Int64(index))
            return CaptureRecord(timestamp: timestamp, bytes: frame)
        }
    }

    static func write(_ records: [CaptureRecord], to path: String, precision: PcapWriter.TimestampPrecision) throws {
        var writer = try PcapWriter(path: path, linkType: .ethernet, timestampPrecision: precision)
        for record in records {
            writer.write(record)
        }
        #expect(writer.framesWritten == records.count)
        try writer.finish()
    }

    @Test func tsharkReadsTheSameFramesWithValidChecksums() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("written.pcap")
        let records = try Self.records()
        try Self.write(records, to: path, precision: .nanoseconds)

        let output = try ExternalTool.run([
            "tshark", "-n", "-r", path, "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-T", "fields", "-e", "frame.time_epoch", "-e", "udp.srcport", "-e", "udp.dstport", "-e", "udp.length",
            "-e", "ip.checksum.status", "-e", "udp.checksum.status", "-e", "data.data",
        ]).standardOutput
        let expected = try records.map { record in
            var fields: [String] = []
            try record.bytes.withUnsafeBytes { bytes in
                let decoded = CaptureFrame(timestamp: record.timestamp, linkType: .ethernet, bytes: bytes).decodeUDP()
                guard case .datagram(let datagram) = decoded else { throw DecodeFailure(decoded: "\(decoded)") }
                let isIPv4 = if case .v4 = datagram.source.address { true } else { false }
                fields = [
                    "\(record.timestamp)", "\(datagram.source.port)", "\(datagram.destination.port)",
                    "\(datagram.payload.count + 8)", isIPv4 ? "1" : "", "1",
                    datagram.payload.map { String(format: "%02x", $0) }.joined(),
                ]
            }
            return fields.joined(separator: "\t")
        }
        #expect(output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == expected)
    }

    @Test(arguments: [PcapWriter.TimestampPrecision.nanoseconds, .microseconds])
    func ourReaderReadsWhatWeWrote(precision: PcapWriter.TimestampPrecision) throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("written.pcap")
        let records = try Self.records()
        try Self.write(records, to: path, precision: precision)
        let expected = records.map { record in
            var kept = record
            if precision == .microseconds {
                kept.timestamp.nanosecondsSinceEpoch -= record.timestamp.nanosecondsSinceEpoch % 1000
            }
            return kept
        }
        #expect(try CaptureReader.records(path: path) == expected)
    }

    @Test func framesLongerThanTheSnapshotAreCut() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("cut.pcap")
        let frame = try TestFrames.ethernetIPv4()
        var writer = try PcapWriter(path: path, linkType: .ethernet, snapshotLength: 64)
        frame.withUnsafeBytes { writer.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 0)) }
        try writer.finish()

        var reader = try CaptureReader(path: path)
        #expect(reader.snapshotLength == 64)
        var statistics = CaptureStatistics()
        var payloads: [[UInt8]] = []
        try reader.forEachUDPDatagram(counting: &statistics) { payloads.append(Array($0.payload)) }
        #expect(payloads == [Array(TestFrames.payload.prefix(64 - 42))])
        #expect(statistics.cutDatagrams == 1)
        let lengths = try ExternalTool.run(["tshark", "-n", "-r", path, "-T", "fields", "-e", "frame.cap_len", "-e", "frame.len"])
        #expect(lengths.standardOutput == "64\t\(frame.count)\n")
    }

    @Test func builderRejectsWhatCannotBeOnePacket() {
        #expect(
            throws: FrameBuildError.addressFamilyMismatch(
                source: TestFrames.ipv4Source.address, destination: TestFrames.ipv6Destination.address)
        ) {
            try UDPFrameBuilder.ethernetFrame(from: TestFrames.ipv4Source, to: TestFrames.ipv6Destination, payload: [])
        }
        let huge = [UInt8](repeating: 0, count: UDPFrameBuilder.maximumIPv4Payload + 1)
        #expect(throws: FrameBuildError.payloadTooLarge(byteCount: huge.count, limit: 65_507)) {
            try UDPFrameBuilder.ethernetFrame(from: TestFrames.ipv4Source, to: TestFrames.ipv4Destination, payload: huge)
        }
        let largest = [UInt8](repeating: 0, count: UDPFrameBuilder.maximumIPv6Payload)
        #expect(throws: Never.self) {
            try UDPFrameBuilder.ethernetFrame(from: TestFrames.ipv6Source, to: TestFrames.ipv6Destination, payload: largest)
        }
    }

    @Test func unwritablePathIsATypedError() {
        let path = "/nonexistent-folder/out.pcap"
        #expect(throws: CaptureError.cannotWrite(path: path, reason: "No such file or directory")) {
            _ = try PcapWriter(path: path, linkType: .ethernet)
        }
    }

    private struct DecodeFailure: Error {
        let decoded: String
    }
}
