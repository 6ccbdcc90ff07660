import Foundation
import Testing
import TestSupport
import RTP
import SecureTransport

/// STUN against RFC 5769's test vectors, and messages we build checked by aioice's parser.
@Suite("STUN messages: RFC 5769 known answers")
struct STUNTests {
    static func vector(_ name: String) throws -> [UInt8] {
        let line = try #require(try Fixtures.vectorLines("stun/rfc5769-stun-test-vectors.txt").first { $0.hasPrefix("\(name): ") })
        let hex = Array(line.dropFirst(name.count + 2))
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0...($0 + 1)]), radix: 16)! }
    }

    static let password = Array("VOkJxbRl1RmTxUk/WvJxBt".utf8)

    @Test("§2.1 sample request: attributes, MESSAGE-INTEGRITY and FINGERPRINT verify")
    func sampleRequest() throws {
        let bytes = try Self.vector("request")
        let message = try bytes.withUnsafeBytes { try STUNMessage(parsing: $0) }
        #expect(message.type == .bindingRequest)
        #expect(message.username == "evtj:h6vY")
        #expect(message.priority == 0x6E00_01FF)
        #expect(message.value(of: .software).map { String(decoding: $0, as: UTF8.self) } == "STUN test client")
        #expect(message.attribute(.iceControlled) != nil)
        #expect(message.hasValidIntegrity(key: Self.password))
        #expect(!message.hasValidIntegrity(key: Array("wrong".utf8)))
        #expect(message.hasValidFingerprint)
    }

    @Test("§2.2 and §2.3 responses: XOR-MAPPED-ADDRESS decodes to the documented IPv4 and IPv6 addresses")
    func sampleResponses() throws {
        let ipv4 = try Self.vector("ipv4-response").withUnsafeBytes { try STUNMessage(parsing: $0) }
        #expect(ipv4.type == .bindingSuccess)
        #expect(try ipv4.xorMappedAddress() == TransportAddress(addressBytes: [192, 0, 2, 1], port: 32853))
        #expect(ipv4.hasValidIntegrity(key: Self.password) && ipv4.hasValidFingerprint)
        let ipv6 = try Self.vector("ipv6-response").withUnsafeBytes { try STUNMessage(parsing: $0) }
        let expected: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0x12, 0x34, 0x56, 0x78, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]
        #expect(try ipv6.xorMappedAddress() == TransportAddress(addressBytes: expected, port: 32853))
        #expect(ipv6.hasValidIntegrity(key: Self.password) && ipv6.hasValidFingerprint)
    }

    @Test("Our builder reproduces the §2.2 response's XOR-MAPPED-ADDRESS octets and a verifiable integrity and fingerprint")
    func builderMatchesVector() throws {
        let vector = try Self.vector("ipv4-response")
        var builder = STUNMessageBuilder(type: .bindingSuccess, transactionID: Array(vector[8..<20]))
        builder.appendXORMappedAddress(TransportAddress(addressBytes: [192, 0, 2, 1], port: 32853)!)
        let built = builder.finish(integrityKey: Self.password, fingerprint: true)
        #expect(Array(built[20..<32]) == Array(vector[36..<48]))
        let message = try built.withUnsafeBytes { try STUNMessage(parsing: $0) }
        #expect(message.hasValidIntegrity(key: Self.password) && message.hasValidFingerprint)
    }

    @Test("aioice (an independent implementation) re-signs a response we build to the same octets")
    func aioiceVerifiesOurResponse() throws {
        var builder = STUNMessageBuilder(type: .bindingSuccess, transactionID: Array(0..<12))
        builder.appendXORMappedAddress(TransportAddress(addressBytes: [127, 0, 0, 1], port: 40_000)!)
        let built = builder.finish(integrityKey: Self.password, fingerprint: true)
        let hex = built.map { String(format: "%02x", $0) }.joined()
        let script = """
            from aioice import stun
            data = bytes.fromhex('\(hex)')
            m = stun.parse_message(data)
            again = stun.Message(message_method=m.message_method, message_class=m.message_class, transaction_id=m.transaction_id)
            again.attributes['XOR-MAPPED-ADDRESS'] = m.attributes['XOR-MAPPED-ADDRESS']
            again.add_message_integrity(b'VOkJxbRl1RmTxUk/WvJxBt')
            print(bytes(again) == data, m.attributes['XOR-MAPPED-ADDRESS'])
            """
        let output = try ExternalTool.run(["timeout", "20", "python3", "-c", script])
        #expect(output.standardOutput.contains("True ('127.0.0.1', 40000)"), "\(output.standardOutput)")
    }

    @Test("Malformed messages throw typed errors: short, wrong cookie, bad length, attribute overrun")
    func malformed() {
        func parse(_ bytes: [UInt8]) -> STUNError? {
            do { _ = try bytes.withUnsafeBytes { try STUNMessage(parsing: $0) }; return nil } catch { return error as? STUNError }
        }
        let header: [UInt8] = [0, 1, 0, 0, 0x21, 0x12, 0xA4, 0x42] + [UInt8](repeating: 7, count: 12)
        #expect(parse(Array(header.prefix(19))) == .truncated(offset: 0))
        #expect(parse([0xC0] + header.dropFirst()) == .notSTUN)
        var cookie = header
        cookie[4] = 0
        #expect(parse(cookie) == .badMagicCookie)
        var length = header
        length[3] = 4
        #expect(parse(length) == .lengthMismatch(declared: 4, actual: 0))
        var overrun = header + [0, 6, 0, 9, 1, 2, 3, 4]
        overrun[3] = 8
        #expect(parse(overrun) == .truncated(offset: 20))
    }
}
