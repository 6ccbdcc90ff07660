import BenchmarkHarness
import RTP
import Testing

/// Protect and unprotect allocate nothing per packet, for every suite, RTP and RTCP (the
/// counter counts the test's own thread; the sessions' storage is allocated when they are created).
@Suite("SRTP allocations")
struct SRTPAllocationTests {
    @Test("No allocation per packet in protect or unprotect", arguments: SRTPCryptoSuite.allCases)
    func noAllocationPerPacket(suite: SRTPCryptoSuite) throws {
        #expect(AllocationCounter.isAvailable, "allocation counting is not available in this build")
        let key = SRTPMasterKey.random(for: suite)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        let rtp = SRTPTestPackets.rtp(sequence: 0)
        let rtcp = SRTPTestPackets.rtcp()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        let rounds = 2_000
        // One packet of each first, so the SSRC's stream exists on both sides.
        var failures = 0
        func roundTrip(_ sequence: UInt16) {
            buffer.copyBytes(from: rtp)
            buffer[2] = UInt8(sequence >> 8)
            buffer[3] = UInt8(truncatingIfNeeded: sequence)
            do {
                let length = try receiver.unprotectRTP(in: buffer, length: try sender.protectRTP(in: buffer, length: rtp.count))
                buffer.copyBytes(from: rtcp)
                let reportLength = try receiver.unprotectRTCP(in: buffer, length: try sender.protectRTCP(in: buffer, length: rtcp.count))
                if length != rtp.count || reportLength != rtcp.count { failures += 1 }
            } catch {
                failures += 1
            }
        }
        roundTrip(0)
        let counted = AllocationCounter.counting {
            for sequence in 1...UInt16(rounds) { roundTrip(sequence) }
        }
        #expect(failures == 0)
        #expect(counted.allocations == 0, "\(counted.allocations) allocations for \(rounds) RTP and RTCP round trips")
    }
}
