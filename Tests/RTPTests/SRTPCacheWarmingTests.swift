import RTP
import Testing

/// `hotRegions`: what a thread serving many sessions warms ahead of a session's packet. The
/// regions are the session's memory beyond the value: the cipher context and, for the
/// HMAC-SHA1 suites, the HMAC states from the start; each SSRC's stream record and replay
/// window once the SSRC has been protected or authenticated.
@Suite("SRTP cache warming")
struct SRTPCacheWarmingTests {
    /// The sizes of the regions `report` gives, in order.
    private static func sizes(_ report: ((UnsafeRawPointer, Int) -> Void) -> Void) -> [Int] {
        var sizes: [Int] = []
        report { _, bytes in sizes.append(bytes) }
        return sizes
    }

    @Test("The regions grow by the stream records and windows as SSRCs come", arguments: SRTPCryptoSuite.allCases)
    func regionsFollowTheStreams(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        let keyRegions = suite.isAEADForTest ? 1 : 2
        #expect(Self.sizes { sender.hotRegions($0) }.count == keyRegions)
        #expect(Self.sizes { receiver.hotRegions($0) }.count == keyRegions)

        var protectedPackets: [[UInt8]] = []
        for ssrc: UInt32 in [1, 2] {
            protectedPackets.append(try sender.protect(SRTPTestPackets.rtp(sequence: 7, ssrc: ssrc)).get())
        }
        let senderSizes = Self.sizes { sender.hotRegions($0) }
        #expect(senderSizes.count == keyRegions + 2)
        _ = try receiver.unprotect(protectedPackets[0]).get()
        let oneStream = Self.sizes { receiver.hotRegions($0) }
        _ = try receiver.unprotect(protectedPackets[1]).get()
        let twoStreams = Self.sizes { receiver.hotRegions($0) }
        #expect(oneStream.count == keyRegions + 2 && twoStreams.count == keyRegions + 2)
        // The stream records and the windows: twice as many bytes for two streams as for one.
        #expect(twoStreams.prefix(2) == oneStream.prefix(2).map { $0 * 2 }[...])
        #expect(twoStreams.prefix(2) == senderSizes.prefix(2))
        #expect(oneStream.allSatisfy { $0 > 0 })
    }
}

extension SRTPCryptoSuite {
    /// Whether the suite is AES-GCM (no HMAC states to report).
    fileprivate var isAEADForTest: Bool {
        self == .aeadAES128GCM || self == .aeadAES256GCM
    }
}
