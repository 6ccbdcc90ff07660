import RTP
import TestSupport
import Testing

/// Known-answer tests from `Tests/Fixtures/vectors/srtp`.
///
/// libsrtp's reference packets go straight through our sessions. The RFC vectors give
/// session keys, which libsrtp cannot take (it always derives them from a master key), so they
/// check ``SRTPReferenceOracle`` instead, and the last test holds our sessions to the oracle's
/// exact bytes for every suite.
@Suite("SRTP known-answer tests")
struct SRTPKnownAnswerTests {
    /// The suite a libsrtp reference section is for, from its name; `nil` for the NULL cipher,
    /// which this library does not offer.
    static func suite(ofSection name: String) -> SRTPCryptoSuite? {
        if name.hasPrefix("AES_CM_128_HMAC_SHA1_80") { return .aes128CounterModeHMACSHA1Tag80 }
        if name.hasPrefix("AEAD_AES_128_GCM") { return .aeadAES128GCM }
        if name.hasPrefix("AES_CM_256_HMAC_SHA1_80") { return .aes256CounterModeHMACSHA1Tag80 }
        return nil
    }

    @Test("libsrtp's reference packets: protect gives their exact bytes, unprotect gives the plaintext back")
    func libsrtpReferencePackets() throws {
        let sections = try srtpVectorSections("libsrtp-2.5.0-srtp_driver-reference-packets.txt")
        let rtp = try sections[0].bytes("rtp_plaintext")
        let rtcp = try sections[0].bytes("rtcp_plaintext")
        var checked: [SRTPCryptoSuite] = []
        for section in sections.dropFirst() {
            guard let suite = Self.suite(ofSection: section.name) else { continue }
            let key = try SRTPMasterKey(suite: suite, keyAndSalt: section.bytes("master_key_and_salt"))
            var sender = try SRTPOutboundSession(key: key)
            var receiver = try SRTPInboundSession(key: key)
            let srtp = try section.bytes("srtp")
            #expect(try sender.protect(rtp).get() == srtp, "\(section.name)")
            #expect(try receiver.unprotect(srtp).get() == rtp, "\(section.name)")
            if section.values["srtcp"] != nil {
                let srtcp = try section.bytes("srtcp")
                #expect(try sender.protect(rtcp, rtcp: true).get() == srtcp, "\(section.name)")
                #expect(try receiver.unprotect(srtcp, rtcp: true).get() == rtcp, "\(section.name)")
            }
            checked.append(suite)
        }
        #expect(checked == [.aes128CounterModeHMACSHA1Tag80, .aeadAES128GCM, .aes256CounterModeHMACSHA1Tag80])
    }

    @Test("Oracle: RFC 3711 B.2 AES-CM keystream, first and last blocks of the segment")
    func rfc3711KeystreamOracle() throws {
        let values = try srtpVectorSections("rfc3711-B.2-aes-cm-keystream.txt")[0].values
        let key = try #require(values["session_key"])
        let rows = try Fixtures.vectorLines("srtp/rfc3711-B.2-aes-cm-keystream.txt")
            .filter { !$0.hasPrefix("#") && !$0.contains(":") }
            .map { $0.split(separator: " ") }
        #expect(rows.count == 6)
        let iv = try #require(values["session_salt_shifted"])
        let commands = rows.map { row in
            let block = Int(row[0].suffix(4), radix: 16) ?? -1
            return "keystream \(key) \(iv) \(block * 16) 16"
        }
        let answers = try SRTPReferenceOracle.run(commands)
        for (row, answer) in zip(rows, answers) {
            #expect(answer == [UInt8](hex: row[1]), "counter \(row[0])")
        }
    }

    @Test("Oracle: RFC 3711 B.3 and RFC 6188 §7 key derivation and AES-256 keystream")
    func keyDerivationOracle() throws {
        let b3 = try srtpVectorSections("rfc3711-B.3-key-derivation.txt")[0]
        let rfc6188 = try srtpVectorSections("rfc6188-7-aes-256-cm.txt")
        let keystream256 = try #require(rfc6188.first { $0.name == "aes_256_cm_keystream" })
        let derivation256 = try #require(rfc6188.first { $0.name.hasPrefix("aes_256_cm_prf") })
        let master = "\(b3.values["master_key"] ?? "") \(b3.values["master_salt"] ?? "")"
        let master256 = "\(derivation256.values["master_key"] ?? "") \(derivation256.values["master_salt"] ?? "")"
        let expected: [(command: String, answer: [UInt8])] = [
            ("derive \(master) 0 16", try b3.bytes("cipher_key")),
            ("derive \(master) 1 94", try b3.bytes("auth_key_94_octets")),
            ("derive \(master) 2 14", try b3.bytes("cipher_salt")),
            ("derive \(master) 3 16", try b3.bytes("srtcp_cipher_key")),
            ("derive \(master) 4 20", try b3.bytes("srtcp_auth_key_20_octets")),
            ("derive \(master) 5 14", try b3.bytes("srtcp_cipher_salt")),
            (
                "keystream \(keystream256.values["session_key"] ?? "") \(keystream256.values["iv"] ?? "") 0 48",
                try keystream256.bytes("keystream_48_octets")
            ),
            ("derive \(master256) 0 32", try derivation256.bytes("cipher_key")),
            ("derive \(master256) 1 20", try derivation256.bytes("auth_key_20_octets")),
            ("derive \(master256) 2 14", try derivation256.bytes("cipher_salt")),
        ]
        let answers = try SRTPReferenceOracle.run(expected.map(\.command))
        for (item, answer) in zip(expected, answers) {
            #expect(answer == item.answer, "\(item.command)")
        }
    }

    @Test("Oracle: RFC 7714 §16 and §17 SRTP and SRTCP AES-GCM packets, and libsrtp's raw AES-GCM cases")
    func aeadOracle() throws {
        let srtp = try srtpVectorSections("rfc7714-16-srtp-aead-aes-gcm.txt")
        let srtcp = try srtpVectorSections("rfc7714-17-srtcp-aead-aes-gcm.txt")
        let gcm = try srtpVectorSections("libsrtp-2.5.0-cipher_test_cases-aes-gcm.txt")[0].values
        let rtpSalt = srtp[0].values["salt"] ?? ""
        let rtcpSalt = srtcp[0].values["salt"] ?? ""
        let rtcpIndex = Int(srtcp[0].values["srtcp_index"] ?? "", radix: 16) ?? -1
        var expected: [(command: String, answer: [UInt8])] = []
        for (rtpSection, rtcpSection) in zip(srtp.dropFirst(), srtcp.dropFirst()) {
            let key = rtpSection.values["key"] ?? ""
            expected.append(
                (
                    "protect_rtp \(key) \(rtpSalt) - 16 0 \(srtp[0].values["plaintext_rtp_packet"] ?? "")",
                    try rtpSection.bytes("protected_rtp_packet")
                ))
            expected.append(
                (
                    "protect_rtcp \(key) \(rtcpSalt) - 16 \(rtcpIndex) \(srtcp[0].values["plaintext_rtcp_packet"] ?? "")",
                    try rtcpSection.bytes("protected_rtcp_packet")
                ))
        }
        let raw = "\(gcm["iv"] ?? "") \(gcm["aad"] ?? "") \(gcm["plaintext"] ?? "")"
        expected.append(("aead \(gcm["key_128"] ?? "") \(raw)", [UInt8](hex: gcm["aes_128_gcm_out"] ?? "") ?? []))
        expected.append(("aead \(gcm["key_256"] ?? "") \(raw)", [UInt8](hex: gcm["aes_256_gcm_out"] ?? "") ?? []))
        #expect(expected.count == 6)
        let answers = try SRTPReferenceOracle.run(expected.map(\.command))
        for (item, answer) in zip(expected, answers) {
            #expect(answer == item.answer, "\(item.command)")
        }
    }

    @Test("Oracle: libsrtp's reference packets from their master keys (key derivation and transform together)")
    func referencePacketsOracle() throws {
        let sections = try srtpVectorSections("libsrtp-2.5.0-srtp_driver-reference-packets.txt")
        let rtp = sections[0].values["rtp_plaintext"] ?? ""
        let rtcp = sections[0].values["rtcp_plaintext"] ?? ""
        var expected: [(command: String, answer: [UInt8])] = []
        for section in sections.dropFirst() {
            guard let suite = Self.suite(ofSection: section.name) else { continue }
            let key = section.values["master_key_and_salt"] ?? ""
            expected.append(("master_protect_rtp \(suite.sdesName) \(key) 0 \(rtp)", try section.bytes("srtp")))
            if section.values["srtcp"] != nil {
                expected.append(("master_protect_rtcp \(suite.sdesName) \(key) 1 \(rtcp)", try section.bytes("srtcp")))
            }
        }
        #expect(expected.count == 5)
        let answers = try SRTPReferenceOracle.run(expected.map(\.command))
        for (item, answer) in zip(expected, answers) {
            #expect(answer == item.answer, "\(item.command)")
        }
    }

    @Test(
        "Our sessions produce the oracle's exact packets across a rollover, with CSRCs, an extension and SRTCP",
        arguments: SRTPCryptoSuite.allCases)
    func sessionsMatchOracle(suite: SRTPCryptoSuite) throws {
        let key = SRTPMasterKey.random(for: suite)
        let keyHex = key.withUnsafeBytes { hexString($0) }
        var sender = try SRTPOutboundSession(key: key)
        var packets: [(plaintext: [UInt8], protected: [UInt8], command: String)] = []
        for sequence: UInt16 in [65_533, 65_534, 65_535, 0, 1] {
            var packet = SRTPTestPackets.rtp(sequence: sequence, payloadLength: 20 + Int(sequence % 50))
            if sequence == 0 {
                // Two CSRCs and a one-byte-header extension (RFC 8285) before the payload.
                packet[0] = 0x92
                packet.insert(contentsOf: [1, 2, 3, 4, 5, 6, 7, 8, 0xBE, 0xDE, 0, 1, 0x10, 0xAA, 0, 0], at: 12)
            }
            let rolloverCounter = sequence < 100 ? 1 : 0
            packets.append(
                (
                    packet, try sender.protect(packet).get(),
                    "master_protect_rtp \(suite.sdesName) \(keyHex) \(rolloverCounter) \(hexString(packet))"
                ))
        }
        for index in 1...3 {
            let report = SRTPTestPackets.rtcp(marker: UInt8(index))
            packets.append(
                (
                    report, try sender.protect(report, rtcp: true).get(),
                    "master_protect_rtcp \(suite.sdesName) \(keyHex) \(index) \(hexString(report))"
                ))
        }
        let answers = try SRTPReferenceOracle.run(packets.map(\.command))
        for (packet, answer) in zip(packets, answers) {
            #expect(packet.protected == answer, "\(hexString(packet.plaintext))")
        }
    }
}
