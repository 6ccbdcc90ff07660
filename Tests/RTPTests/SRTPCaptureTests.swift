import Foundation
import RTP
import TestSupport
import Testing

/// The SRTP capture in `Tests/Fixtures/captures` decrypts fully with the SDES key its catalog gives.
@Suite("SRTP capture decryption")
struct SRTPCaptureTests {
    static let captureName = "srtp-decrypt_marseillaise-srtp_first1500.pcap"

    /// The base64 SDES key on the capture's CATALOG.md line (the text in backticks after
    /// "SDES key (base64)").
    static func catalogKey() throws -> String {
        let catalog = try String(contentsOf: Fixtures.capture("CATALOG.md"), encoding: .utf8)
        let line = try #require(catalog.split(separator: "\n").first { $0.contains(captureName) })
        let afterLabel = try #require(line.range(of: "SDES key (base64) `")).upperBound
        return String(line[afterLabel...].prefix { $0 != "`" })
    }

    @Test("All 1500 packets authenticate and decrypt: 182 → 172 octets, PCMA, the first payload starting 0xD5")
    func decryptCapture() throws {
        let attribute = try SDESCryptoAttribute(parsing: "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.catalogKey())")
        var receiver = try SRTPInboundSession(key: attribute.masterKey)
        let output = try ExternalTool.run(["tshark", "-r", Fixtures.capture(Self.captureName).path, "-T", "fields", "-e", "udp.payload"])
        let packets = output.standardOutput.split(separator: "\n").compactMap { [UInt8](hex: $0) }
        #expect(packets.count == 1500)
        var firstPayloadOctet: UInt8?
        for (number, packet) in packets.enumerated() {
            let plaintext = try receiver.unprotect(packet).get()
            #expect(packet.count == 182 && plaintext.count == 172, "packet \(number + 1)")
            // The RTP view: a 12-octet header, PCMA, SSRC 0xDEADBEEF, sequence numbers from 0.
            try plaintext.withUnsafeBytes { bytes in
                let view = try RTPPacket(bytes)
                #expect(view.headerLength == 12 && view.payloadType == 8 && view.ssrc == 0xDEAD_BEEF, "packet \(number + 1)")
                #expect(Int(view.sequenceNumber.rawValue) == number, "packet \(number + 1)")
                firstPayloadOctet = firstPayloadOctet ?? view.payload.first
            }
        }
        #expect(firstPayloadOctet == 0xD5)
        #expect(receiver.statistics.unprotectedPackets == 1500)
        #expect(receiver.statistics.authenticationFailures == 0)
    }
}
