import RTP
import SRTPReference
import TestSupport
import Testing

/// Our native transform against libsrtp2, in process, step by step (``SRTPDifferentialRun``):
/// the same octets from protect for the same keys, packets and rollover counters, and the same
/// verdict from unprotect for intact, replayed, reordered, tampered and truncated packets,
/// across sequence wraps, sequence jumps that move the rollover counter, and rollover counters
/// set on both sides.
@Suite("SRTP differential against libsrtp2")
struct SRTPDifferentialTests {
    @Test(
        "Random scripts agree step for step, with random keys, windows and SRTCP tag lengths",
        arguments: SRTPCryptoSuite.allCases.indices)
    func randomScripts(suiteIndex: Int) throws {
        var totalSteps = 0
        var totalAccepted = 0
        for seed in 0..<12 {
            var generator = SplitMix64(seed: UInt64(suiteIndex) << 32 | UInt64(seed))
            var script = SRTPScript([UInt8(suiteIndex)] + (0..<6_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let run = try SRTPDifferentialRun(script: &script)
            #expect(run.suite == SRTPCryptoSuite.allCases[suiteIndex])
            do {
                try run.run(&script)
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
            totalSteps += run.steps
            totalAccepted += run.accepted
        }
        #expect(totalSteps > 15_000)
        #expect(totalAccepted > totalSteps / 20, "enough packets are accepted for the comparison to mean something")
    }
}

/// The choices where our sessions go beyond libsrtp: the SRTCP tag length, either length
/// accepted, and the MKI.
@Suite("SRTP options")
struct SRTPOptionsTests {
    static let shortTagSuites: [SRTPCryptoSuite] = [.aes128CounterModeHMACSHA1Tag32, .aes256CounterModeHMACSHA1Tag32]

    @Test(
        "A 32-bit SRTCP tag (Linphone) is refused by default and accepted with acceptsEitherRTCPTagLength",
        arguments: shortTagSuites)
    func shortRTCPTag(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        var linphoneLike = SRTPSessionOptions()
        linphoneLike.rtcpTagLength = .sameAsRTP
        var sender = try SRTPOutboundSession(key: key, options: linphoneLike)
        let report = SRTPTestPackets.rtcp()
        let protected = try sender.protect(report, rtcp: true).get()
        #expect(protected.count == report.count + 4 + 4)

        var strict = try SRTPInboundSession(key: key)
        #expect((try? strict.unprotect(protected, rtcp: true).get()) == nil, "refused: the tag is not where RFC 3711 puts it")
        var either = SRTPSessionOptions()
        either.acceptsEitherRTCPTagLength = true
        var tolerant = try SRTPInboundSession(key: key, options: either)
        #expect(try tolerant.unprotect(protected, rtcp: true).get() == report)

        // And the other way: a receiver set to 32 bits that accepts either takes RFC 3711's 80.
        var standardSender = try SRTPOutboundSession(key: key)
        let otherReport = SRTPTestPackets.rtcp(ssrc: 0xCAFE_F00D, marker: 9)
        let standard = try standardSender.protect(otherReport, rtcp: true).get()
        linphoneLike.acceptsEitherRTCPTagLength = true
        var tolerantShort = try SRTPInboundSession(key: key, options: linphoneLike)
        #expect(try tolerantShort.unprotect(standard, rtcp: true).get() == otherReport)
        #expect(try tolerantShort.unprotect(protected, rtcp: true).get() == report)
    }

    @Test(
        "The MKI follows the payload (HMAC suites: before the tag; AEAD: after it) and a foreign one is refused",
        arguments: SRTPCryptoSuite.allCases)
    func masterKeyIdentifier(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        var options = SRTPSessionOptions()
        options.masterKeyIdentifier = [0xDE, 0xAD, 0xBE, 0xEF]
        var sender = try SRTPOutboundSession(key: key, options: options)
        var receiver = try SRTPInboundSession(key: key, options: options)
        let packet = SRTPTestPackets.rtp(sequence: 7)
        let protected = try sender.protect(packet, mkiLength: 4).get()
        #expect(protected.count == packet.count + suite.rtpOverhead + 4)
        let mkiOffset = suite.sdesName.hasPrefix("AEAD") ? packet.count + suite.rtpTagLength : packet.count
        #expect(Array(protected[mkiOffset..<(mkiOffset + 4)]) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(try receiver.unprotect(protected).get() == packet)

        let report = SRTPTestPackets.rtcp()
        let protectedReport = try sender.protect(report, rtcp: true, mkiLength: 4).get()
        #expect(protectedReport.count == report.count + suite.rtcpOverhead + 4)
        // E ‖ index, then the MKI: after the ciphertext (HMAC) or after the GCM tag.
        let trailerOffset = suite.sdesName.hasPrefix("AEAD") ? report.count + 16 : report.count
        #expect(Array(protectedReport[(trailerOffset + 4)..<(trailerOffset + 8)]) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(try receiver.unprotect(protectedReport, rtcp: true).get() == report)

        var other = options
        other.masterKeyIdentifier = [0xDE, 0xAD, 0xBE, 0xEE]
        var stranger = try SRTPInboundSession(key: key, options: other)
        #expect(stranger.unprotect(protected) == .failure(.unknownMasterKeyIdentifier(.unprotectRTP)))
        #expect(stranger.unprotect(protectedReport, rtcp: true) == .failure(.unknownMasterKeyIdentifier(.unprotectRTCP)))
        #expect(stranger.statistics.otherFailures == 2)
    }
}
