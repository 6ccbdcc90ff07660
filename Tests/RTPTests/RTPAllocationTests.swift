import BenchmarkHarness
import RTP
import Testing
import TestSupport

/// Parsing a received packet and reading every field allocates nothing: the view reads the
/// caller's bytes in place. `scripts/test.sh` runs this in a release build, where the promise is
/// zero; a debug build makes no allocation here either.
@Suite("RTP parsing allocations", .countsAllocations)
struct RTPAllocationTests {
    @Test func parsingAndReadingAllocateNothing() throws {
        let rounds = 10_000
        let (allocations, checksum) = try RTPPacketTests.rfc6904Packet.withUnsafeBytes { bytes in
            try AllocationCounter.counting { () throws(RTPError) -> Int in
                var checksum = 0
                for _ in 0..<rounds {
                    let packet = try RTPPacket(bytes)
                    checksum &+= Int(packet.sequenceNumber.rawValue) &+ Int(packet.payloadType) &+ packet.payload.count
                    checksum &+= packet.csrcs.count
                    if let headerExtension = packet.headerExtension {
                        for element in headerExtension.elements { checksum &+= Int(element.id) &+ element.data.count }
                    }
                }
                return checksum
            }
        }
        // Sequence 0x1234, payload type 15, 16 payload bytes, elements 1–4 of 8, 3, 1 and 7 bytes.
        #expect(checksum == rounds * (0x1234 + 15 + 16 + (1 + 2 + 3 + 4) + (8 + 3 + 1 + 7)))
        #expect(allocations == 0, "\(allocations) allocations for \(rounds) packets")
    }
}
