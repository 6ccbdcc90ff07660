import BenchmarkHarness
import Capture
import Testing
import TestSupport

/// Reading and decoding allocate nothing per frame (the counter counts the test's own thread).
@Suite("Capture allocations", .countsAllocations)
struct AllocationTests {
    @Test(arguments: [
        (try TestFrames.ethernetIPv4(), LinkType.ethernet),
        (try TestFrames.vlanTagged([0x88A8, 0x8100]), .ethernet),
        (TestFrames.linuxSLL2(protocol: 0x86DD, packet: try TestFrames.ipv6Packet()), .linuxSLL2),
        (try TestFrames.ipv6Packet(extensionHeaders: [.options(0), .routing]), .ipv6),
    ])
    func decodingAllocatesNothing(frame: [UInt8], linkType: LinkType) throws {
        let rounds = 10_000
        let (allocations, payloadBytes) = frame.withUnsafeBytes { bytes in
            AllocationCounter.counting {
                var payloadBytes = 0
                for _ in 0..<rounds {
                    if case .datagram(let datagram) = CaptureFrame(linkType: linkType, bytes: bytes).decodeUDP() {
                        payloadBytes += datagram.payload.count
                    }
                }
                return payloadBytes
            }
        }
        #expect(payloadBytes == rounds * TestFrames.payload.count)
        #expect(allocations == 0)
    }

    /// Opening a file allocates (libpcap's buffers, the path); reading 852 frames must cost no
    /// more than reading 10. Both files hold only UDP: a skipped frame is a thrown `Skip` inside
    /// the decoder, which allocates nothing in itself, but Swift Testing's throw hook boxes every
    /// thrown error while tests run.
    @Test func readingAllocatesNothingPerFrame() throws {
        func allocations(reading name: String) throws -> (allocations: UInt64, frames: Int) {
            let path = try Fixtures.capture(name).path
            var statistics = CaptureStatistics()
            let (allocations, _) = try AllocationCounter.counting {
                var reader = try CaptureReader(path: path)
                try reader.forEachUDPDatagram(counting: &statistics) { _ in }
            }
            return (allocations, statistics.frames)
        }
        let small = try allocations(reading: "sipp_dtmf_2833_1.pcap")
        let large = try allocations(reading: "ws_sip-rtp-g711.pcap")
        #expect(small.frames == 10)
        #expect(large.frames == 852)
        #expect(large.allocations <= small.allocations + 5, "\(small.allocations) for 10 frames, \(large.allocations) for 852")
    }
}
