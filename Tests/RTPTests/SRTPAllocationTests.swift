import BenchmarkHarness
import RTP
import Testing

/// Protect and unprotect allocate nothing per packet, for every suite, RTP and RTCP (the
/// counter counts the test's own thread; the sessions' storage is allocated when they are created).
///
/// The zero is asserted in an optimised build (`swift test -c release -Xswiftc -enable-testing
/// --filter SRTPAllocationTests`; `bench srtp` counts the same in its rows). A debug build's
/// unoptimised code allocates a little (5 per RTP and RTCP round trip measured, none once
/// optimised), so there the test only bounds it at 2 per transform.
@Suite("SRTP allocations")
struct SRTPAllocationTests {
    @Test("No allocation per packet in protect or unprotect", arguments: SRTPCryptoSuite.allCases)
    func noAllocationPerPacket(suite: SRTPCryptoSuite) throws {
        #expect(AllocationCounter.isAvailable, "allocation counting is not available in this build")
        let key = SRTPMasterKey.random(for: suite)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        // Plaintexts copied in with `copyMemory` (not generic: a debug build's unspecialised
        // generic copy would allocate in the test itself).
        let rtp = UnsafeMutableRawBufferPointer.allocate(byteCount: 172, alignment: 8)
        let rtcp = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer {
            rtp.deallocate()
            rtcp.deallocate()
            buffer.deallocate()
        }
        rtp.copyBytes(from: SRTPTestPackets.rtp(sequence: 0))
        rtcp.copyBytes(from: SRTPTestPackets.rtcp())
        let rounds = 2_000
        var failures = 0
        func roundTrip(_ sequence: UInt16) {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rtp))
            buffer.storeBytes(of: sequence.bigEndian, toByteOffset: 2, as: UInt16.self)
            do {
                let length = try receiver.unprotectRTP(in: buffer, length: try sender.protectRTP(in: buffer, length: rtp.count))
                buffer.copyMemory(from: UnsafeRawBufferPointer(rtcp))
                let reportLength = try receiver.unprotectRTCP(in: buffer, length: try sender.protectRTCP(in: buffer, length: rtcp.count))
                if length != rtp.count || reportLength != rtcp.count { failures += 1 }
            } catch {
                failures += 1
            }
        }
        // One packet of each first, so the SSRC's stream exists on both sides.
        roundTrip(0)
        let counted = AllocationCounter.counting {
            for sequence in 1...UInt16(rounds) { roundTrip(sequence) }
        }
        #expect(failures == 0)
        #if DEBUG
            let allowed = UInt64(rounds * 4 * 2)
        #else
            let allowed: UInt64 = 0
        #endif
        #expect(counted.allocations <= allowed, "\(counted.allocations) allocations for \(rounds) RTP and RTCP round trips")
    }
}
