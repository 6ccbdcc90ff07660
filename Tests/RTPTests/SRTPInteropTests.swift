import RTP
import Testing

/// Interoperation with pylibsrtp, both ways, for every suite: packets either side protects
/// are identical and unprotect on the other; one tampered octet anywhere, or a replay, is
/// refused by both.
@Suite("SRTP interop with pylibsrtp")
struct SRTPInteropTests {
    /// RTP packets across a sequence rollover, of several lengths, then RTCP reports.
    static let plaintexts: [(packet: [UInt8], rtcp: Bool)] =
        (UInt16(65_530)...UInt16(65_535)).map { (SRTPTestPackets.rtp(sequence: $0, payloadLength: 8 + Int($0 % 6) * 30), false) }
        + (UInt16(0)...UInt16(3)).map { (SRTPTestPackets.rtp(sequence: $0, payloadLength: 160), false) }
        + (1...3).map { (SRTPTestPackets.rtcp(marker: UInt8($0)), true) }

    /// The packet with octet `index` changed in one bit.
    static func tampered(_ packet: [UInt8], at index: Int) -> [UInt8] {
        var copy = packet
        copy[index] ^= 1 << UInt8(index % 8)
        return copy
    }

    @Test("Both ways, identical packets, tampering and replays refused", arguments: SRTPCryptoSuite.allCases)
    func interoperate(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        var sender = try SRTPOutboundSession(key: key)
        let ours = try Self.plaintexts.map { try sender.protect($0.packet, rtcp: $0.rtcp).get() }

        // The peer: every one-octet tampering of our first RTP and first RTCP packet, then
        // each of our packets, then the first ones again (replays); then it protects the
        // plaintexts itself.
        let firstRTCP = Self.plaintexts.firstIndex { $0.rtcp } ?? 0
        var commands: [(operation: String, packet: [UInt8])] = []
        for probe in [0, firstRTCP] {
            let operation = Self.plaintexts[probe].rtcp ? "unprotect_rtcp" : "unprotect"
            commands += ours[probe].indices.map { (operation, Self.tampered(ours[probe], at: $0)) }
        }
        let tamperCount = commands.count
        commands += zip(Self.plaintexts, ours).map { ($0.rtcp ? "unprotect_rtcp" : "unprotect", $1) }
        commands += [("unprotect", ours[0]), ("unprotect_rtcp", ours[firstRTCP])]
        commands += Self.plaintexts.map { ($0.rtcp ? "protect_rtcp" : "protect", $0.packet) }
        let answers = try SRTPPylibsrtpPeer.run(key: key, commands)

        let tamperAnswers = answers[..<tamperCount]
        #expect(tamperAnswers.allSatisfy { (try? $0.get()) == nil }, "pylibsrtp accepted a tampered packet")
        let unprotected = answers[tamperCount..<(tamperCount + ours.count)].map { try? $0.get() }
        #expect(unprotected == Self.plaintexts.map(\.packet), "pylibsrtp unprotects ours")
        let replays = answers[(tamperCount + ours.count)..<(tamperCount + ours.count + 2)]
        #expect(Array(replays) == Array(repeating: .failure(.init(message: "replay check failed (bad index)")), count: 2))
        let theirs = try answers.suffix(Self.plaintexts.count).map { try $0.get() }
        #expect(theirs == ours, "both sides protect to the same octets")

        // Us: every one-octet tampering of their first packets, then theirs, then replays.
        var receiver = try SRTPInboundSession(key: key)
        for probe in [0, firstRTCP] {
            let rtcp = Self.plaintexts[probe].rtcp
            for index in theirs[probe].indices {
                let outcome = receiver.unprotect(Self.tampered(theirs[probe], at: index), rtcp: rtcp)
                #expect(outcome == .failure(.authenticationFailed(rtcp ? .unprotectRTCP : .unprotectRTP)), "octet \(index)")
            }
        }
        for (plaintext, packet) in zip(Self.plaintexts, theirs) {
            #expect(try receiver.unprotect(packet, rtcp: plaintext.rtcp).get() == plaintext.packet)
        }
        #expect(receiver.unprotect(theirs[0]) == .failure(.replayed(.unprotectRTP)))
        #expect(receiver.unprotect(theirs[firstRTCP], rtcp: true) == .failure(.replayed(.unprotectRTCP)))
        #expect(receiver.statistics.authenticationFailures == UInt64(tamperCount))
        #expect(receiver.statistics.unprotectedPackets == UInt64(ours.count))
        #expect(receiver.statistics.replays == 2)
    }
}
