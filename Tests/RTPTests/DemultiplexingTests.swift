import Testing
import RTP

@Suite("Demultiplexing (RFC 7983, RFC 5761 §4)")
struct DemultiplexingTests {
    static func kind(_ bytes: [UInt8]) -> DatagramKind {
        bytes.withUnsafeBytes { DatagramClassifier.classify($0) }
    }

    @Test("First-byte ranges of RFC 7983, every value")
    func firstByteRanges() {
        for first in 0...255 {
            let expected: DatagramKind
            switch first {
            case 0...3: expected = .stun
            case 16...19: expected = .zrtp
            case 20...63: expected = .dtls
            case 64...79: expected = .turnChannel
            case 128...191: expected = .rtp
            default: expected = .unknown
            }
            #expect(Self.kind([UInt8(first), 0]) == expected, "first byte \(first)")
        }
    }

    @Test("Second byte 192–223 is RTCP, anything else RTP")
    func rtcpMux() {
        for second in 0...255 {
            let expected: DatagramKind = (192...223).contains(second) ? .rtcp : .rtp
            #expect(Self.kind([0x80, UInt8(second)]) == expected, "second byte \(second)")
        }
        #expect(Self.kind([0x81, 200]) == .rtcp)  // SR
        #expect(Self.kind([0x80, 0x80 | 0]) == .rtp)  // PCMU with marker
        #expect(Self.kind([0x80]) == .unknown)
        #expect(Self.kind([]) == .unknown)
    }
}
