import RTP
import Testing

@Suite("SRTP sessions")
struct SRTPSessionTests {
    @Test("RTP and RTCP round-trip through protect and unprotect", arguments: SRTPCryptoSuite.allCases)
    func roundTrip(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        for sequence in UInt16(65_530)...UInt16(65_535) {
            let packet = SRTPTestPackets.rtp(sequence: sequence, payloadLength: Int(sequence % 7) * 40)
            let protected = try sender.protect(packet).get()
            #expect(protected.count == packet.count + suite.rtpTagLength)
            #expect(protected[..<12] == packet[..<12], "the header stays in clear")
            #expect(protected[12..<packet.count] != packet[12...] || packet.count == 12)
            #expect(try receiver.unprotect(protected).get() == packet)
        }
        let report = SRTPTestPackets.rtcp()
        let protectedReport = try sender.protect(report, rtcp: true).get()
        #expect(protectedReport.count == report.count + suite.rtcpTagLength + 4)
        #expect(try receiver.unprotect(protectedReport, rtcp: true).get() == report)
        #expect(sender.statistics.protectedPackets == 7)
        #expect(receiver.statistics.unprotectedPackets == 7)
        #expect(receiver.statistics.authenticationFailures == 0)
    }

    @Test("Overheads per suite", arguments: SRTPCryptoSuite.allCases)
    func overheads(suite: SRTPCryptoSuite) {
        let expected: (rtp: Int, rtcp: Int, key: Int) =
            switch suite {
            case .aes128CounterModeHMACSHA1Tag80: (10, 14, 30)
            case .aes128CounterModeHMACSHA1Tag32: (4, 14, 30)
            case .aes256CounterModeHMACSHA1Tag80: (10, 14, 46)
            case .aes256CounterModeHMACSHA1Tag32: (4, 14, 46)
            case .aeadAES128GCM: (16, 20, 28)
            case .aeadAES256GCM: (16, 20, 44)
            }
        #expect(suite.rtpOverhead == expected.rtp)
        #expect(suite.rtcpOverhead == expected.rtcp)
        #expect(suite.keyMaterialLength == expected.key)
        #expect(SRTPCryptoSuite(sdesName: suite.sdesName) == suite)
    }

    @Test("A tampered packet is refused as an authentication failure, counted, and the session goes on")
    func tamperedPacket() throws {
        let key = SRTPMasterKey.random(for: .aes128CounterModeHMACSHA1Tag80)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        let protected = try sender.protect(SRTPTestPackets.rtp(sequence: 1)).get()
        var tampered = protected
        tampered[20] ^= 0x40
        #expect(receiver.unprotect(tampered) == .failure(.authenticationFailed(.unprotectRTP)))
        #expect(receiver.statistics.authenticationFailures == 1)
        #expect(try receiver.unprotect(protected).get() == SRTPTestPackets.rtp(sequence: 1))
    }

    @Test("Replays are refused: inside the window as replayed, behind it as too old")
    func replays() throws {
        let key = SRTPMasterKey.random(for: .aeadAES128GCM)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key, replayWindowSize: 64)
        let first = try sender.protect(SRTPTestPackets.rtp(sequence: 100)).get()
        _ = try receiver.unprotect(first).get()
        #expect(receiver.unprotect(first) == .failure(.replayed(.unprotectRTP)))
        for sequence in UInt16(101)...UInt16(300) {
            _ = try receiver.unprotect(try sender.protect(SRTPTestPackets.rtp(sequence: sequence)).get()).get()
        }
        #expect(receiver.unprotect(first) == .failure(.replayTooOld(.unprotectRTP)))
        let report = try sender.protect(SRTPTestPackets.rtcp(), rtcp: true).get()
        _ = try receiver.unprotect(report, rtcp: true).get()
        #expect(receiver.unprotect(report, rtcp: true) == .failure(.replayed(.unprotectRTCP)))
        #expect(receiver.statistics.replays == 3)
        #expect(receiver.statistics.unprotectedPackets == 202)
        #expect(
            sender.protect(SRTPTestPackets.rtp(sequence: 300)) == .failure(.replayed(.protectRTP)),
            "protecting a sequence number twice reuses a keystream")
    }

    @Test("Protect needs room for the tag and says how much")
    func bufferTooSmall() throws {
        var sender = try SRTPOutboundSession(key: .random(for: .aes128CounterModeHMACSHA1Tag80))
        var buffer = SRTPTestPackets.rtp(sequence: 1) + [UInt8](repeating: 0, count: 9)
        let length = buffer.count - 9
        #expect(throws: SRTPError.bufferTooSmall(.protectRTP, required: length + 10, available: length + 9)) {
            try buffer.withUnsafeMutableBytes { try sender.protectRTP(in: $0, length: length) }
        }
        #expect(throws: SRTPError.invalidLength(.protectRTCP, length: buffer.count + 1, bufferCount: buffer.count)) {
            try buffer.withUnsafeMutableBytes { try sender.protectRTCP(in: $0, length: $0.count + 1) }
        }
        #expect(sender.statistics.otherFailures == 2)
    }

    @Test("Packets too short or with a broken header are refused as malformed")
    func malformed() throws {
        let key = SRTPMasterKey.random(for: .aes128CounterModeHMACSHA1Tag80)
        var sender = try SRTPOutboundSession(key: key)
        var receiver = try SRTPInboundSession(key: key)
        #expect(receiver.unprotect([0x80, 0x00, 0x00]) == .failure(.malformedPacket(.unprotectRTP)))
        #expect(receiver.unprotect([]) == .failure(.malformedPacket(.unprotectRTP)))
        #expect(receiver.unprotect([0x81, 0xC8, 0x00], rtcp: true) == .failure(.malformedPacket(.unprotectRTCP)))
        var header = SRTPTestPackets.rtp(sequence: 5, payloadLength: 0)
        header[0] = 0x8F  // fifteen CSRCs announced, none present
        #expect(sender.protect(header) == .failure(.malformedPacket(.protectRTP)))
        #expect(receiver.statistics.otherFailures == 3)
        #expect(sender.statistics.otherFailures == 1)
    }

    @Test("Keys of the wrong length are refused, naming the suite and the lengths")
    func keyLengths() {
        #expect(throws: SRTPError.invalidKeyLength(suite: .aeadAES256GCM, expected: 44, actual: 46)) {
            try SRTPMasterKey(suite: .aeadAES256GCM, keyAndSalt: [UInt8](repeating: 1, count: 46))
        }
        #expect(throws: SRTPError.invalidKeyLength(suite: .aes128CounterModeHMACSHA1Tag80, expected: 30, actual: 28)) {
            try SRTPMasterKey(
                suite: .aes128CounterModeHMACSHA1Tag80, key: [UInt8](repeating: 1, count: 16),
                salt: [UInt8](repeating: 2, count: 12))
        }
        #expect(throws: SRTPError.invalidReplayWindowSize(32)) {
            _ = try SRTPInboundSession(key: .random(for: .aeadAES128GCM), replayWindowSize: 32)
        }
    }

    @Test("Keys never appear in descriptions, debug descriptions or dumps")
    func redaction() throws {
        let key = try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: [UInt8](repeating: 0xAB, count: 30))
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, key.debugDescription, "\(key)", String(reflecting: key), dumped] {
            #expect(!text.lowercased().contains("ab"), "\(text)")
            #expect(!text.contains("171"), "\(text)")
            #expect(text.contains("redacted"))
        }
    }

    @Test("Equal keys compare equal; keys differing in one octet or in suite do not")
    func keyEquality() throws {
        let octets = [UInt8](0..<30)
        let key = try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: octets)
        #expect(key == (try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: octets)))
        #expect(key != (try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag32, keyAndSalt: octets)))
        var changed = octets
        changed[29] ^= 1
        #expect(key != (try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: changed)))
        #expect(key.withUnsafeBytes { Array($0) } == octets)
    }

    @Test("Error descriptions name the operation and the failure")
    func errorDescriptions() {
        #expect(SRTPError.authenticationFailed(.unprotectRTCP).description == "SRTCP unprotect: authentication failed")
        #expect(SRTPError.replayTooOld(.unprotectRTP).description.contains("older than the replay window"))
        #expect(SRTPError.cryptoLibraryFailure("EVP_CIPHER_CTX_new").description == "OpenSSL: EVP_CIPHER_CTX_new failed")
    }
}
