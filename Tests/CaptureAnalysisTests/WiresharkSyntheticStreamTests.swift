import Foundation
import QualityMetrics
import CaptureAnalysis
import TestSupport
import Testing

/// ``WiresharkRTPStreamStatistics`` against tshark on made-up streams that reach the corners
/// the shared captures do not: sequence and timestamp wraps, duplicates, reordering, losses
/// across a wrap, markers, comfort noise, payload type changes, timestamps before the first,
/// a late last packet, the 44.1 kHz clock Wireshark divides as 44, and dynamic types with no
/// clock. Each stream is written as a pcap, read back by tshark with its RTP heuristic, and both
/// figures compared.
@Suite("Wireshark RTP stream statistics agree with tshark on edge-case streams")
struct WiresharkSyntheticStreamTests {
    /// One RTP packet of a made-up stream.
    struct Packet {
        var arrivalNanoseconds: Int64
        var sequenceNumber: UInt16
        var timestamp: UInt32
        var payloadType: UInt8 = 8
        var marker = false
    }

    /// A named made-up stream.
    struct Scenario: CustomStringConvertible, Sendable {
        let description: String
        let build: @Sendable () -> [Packet]
    }

    /// `count` packets every `interval` ms with `step` timestamp units, arrival jittered by up
    /// to `jitterMilliseconds` with a fixed-seed generator.
    static func regular(
        count: Int, firstSequence: UInt16, firstTimestamp: UInt32, step: UInt32 = 160,
        payloadType: UInt8 = 8, jitterMilliseconds: Int64 = 3, seed: UInt64 = 1
    ) -> [Packet] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let wobble = Int64((random.next() >> 33) % UInt64(jitterMilliseconds * 1_000_000 + 1))
            return Packet(
                arrivalNanoseconds: 1_700_000_000_000_000_000 + Int64(index) * 20_000_000 + wobble,
                sequenceNumber: firstSequence &+ UInt16(truncatingIfNeeded: index),
                timestamp: firstTimestamp &+ UInt32(index) &* step, payloadType: payloadType)
        }
    }

    static let scenarios: [Scenario] = [
        Scenario(description: "sequence and timestamp wrap together") {
            regular(count: 60, firstSequence: 65_500, firstTimestamp: 0xFFFF_F000)
        },
        Scenario(description: "duplicates, reordering, a loss, marker, comfort noise, payload change, old timestamp") {
            var packets = regular(count: 50, firstSequence: 65_520, firstTimestamp: 0xFFFF_FF00, seed: 2)
            packets[5].marker = true
            packets[10].payloadType = 13
            packets[11].payloadType = 13
            packets[20].payloadType = 0
            packets[25].sequenceNumber = packets[24].sequenceNumber
            packets[33].timestamp = packets[0].timestamp &- 1000
            packets.remove(at: 30)
            packets.insert(packets[14], at: 15)
            packets.swapAt(17, 18)
            return packets
        },
        Scenario(description: "packets lost across the sequence wrap") {
            var packets = regular(count: 40, firstSequence: 65_520, firstTimestamp: 1000, seed: 3)
            packets.removeSubrange(14...17)  // 65534, 65535, 0 and 1
            return packets
        },
        Scenario(description: "sequence starting at 0 and a late last packet") {
            var packets = regular(count: 30, firstSequence: 0, firstTimestamp: 5000, seed: 4)
            packets.swapAt(28, 29)
            packets[29].arrivalNanoseconds = packets[28].arrivalNanoseconds + 5_000_000
            return packets
        },
        Scenario(description: "L16 mono at 44.1 kHz, which Wireshark converts with 44 units per ms") {
            regular(count: 40, firstSequence: 7, firstTimestamp: 123_456, step: 882, payloadType: 11, seed: 5)
        },
        Scenario(description: "dynamic payload type without SDP: no clock, jitter -1/0/0") {
            regular(count: 25, firstSequence: 300, firstTimestamp: 9, payloadType: 111, seed: 6)
        },
        Scenario(description: "a gap of many packets and a timestamp jump") {
            var packets = regular(count: 60, firstSequence: 1000, firstTimestamp: 0x7FFF_0000, seed: 7)
            packets.removeSubrange(20..<45)
            return packets
        },
    ]

    @Test(arguments: scenarios)
    func agreesWithTshark(scenario: Scenario) throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("wireshark-synthetic-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.pcap(scenario.build()).write(to: file)

        let expected = try WiresharkTshark.streams(file, heuristic: true)
        let ours = WiresharkTshark.statistics(try WiresharkTshark.packets(file, heuristic: true), payloads: [:])
        let row = try #require(expected.first, "tshark found no RTP stream")
        #expect(expected.count == 1 && ours.count == 1)
        let statistics = try #require(ours[row.key], "no stream \(row.key)")
        let differences = WiresharkTshark.differences(statistics, row)
        #expect(differences.isEmpty, "\(differences.joined(separator: "; "))")
    }

    /// A nanosecond-resolution pcap of Ethernet/IPv4/UDP frames, 10.0.0.1:40000 → 10.0.0.2:40002,
    /// each carrying one RTP packet (SSRC 0x11223344) with a 160-byte payload.
    static func pcap(_ packets: [Packet]) -> Data {
        var bytes: [UInt8] = []
        func little32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        func little16(_ value: UInt16) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        little32(0xA1B2_3C4D)  // nanosecond pcap
        little16(2); little16(4); little32(0); little32(0); little32(65_535); little32(1)
        for packet in packets {
            let frame = ethernetFrame(packet)
            little32(UInt32(packet.arrivalNanoseconds / 1_000_000_000))
            little32(UInt32(packet.arrivalNanoseconds % 1_000_000_000))
            little32(UInt32(frame.count)); little32(UInt32(frame.count))
            bytes += frame
        }
        return Data(bytes)
    }

    static func ethernetFrame(_ packet: Packet) -> [UInt8] {
        func big16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func big32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
        let rtp: [UInt8] =
            [0x80, (packet.marker ? 0x80 : 0) | packet.payloadType] + big16(Int(packet.sequenceNumber))
            + big32(packet.timestamp) + big32(0x1122_3344) + [UInt8](repeating: 0xD5, count: 160)
        let udp = big16(40_000) + big16(40_002) + big16(8 + rtp.count) + [0, 0] + rtp
        let ip: [UInt8] = [0x45, 0] + big16(20 + udp.count) + [0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]
        return [UInt8](repeating: 0, count: 12) + [0x08, 0x00] + ip + udp
    }
}
