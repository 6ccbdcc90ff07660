import BenchmarkHarness
import RTP

extension BenchmarkSuite {
    /// SRTP protect, and protect then unprotect, of a 160-octet payload through our sessions,
    /// against the same loop in plain C on libsrtp2 (`Benchmarks/peers/srtp_loop.c`), for
    /// AES-CM-128 with an 80-bit tag and AEAD-AES-128-GCM.
    static let srtp = BenchmarkSuite(
        name: "srtp",
        summary: "SRTP protect and protect+unprotect of a 160-octet payload vs plain C on libsrtp2"
    ) { context in
        let peer = PeerProgram("srtp_loop", pkgConfigPackages: ["libsrtp2"])
        let suites: [(suite: SRTPCryptoSuite, label: String)] = [
            (.aes128CounterModeHMACSHA1Tag80, "aes-cm-128-80"),
            (.aeadAES128GCM, "aes-gcm-128"),
        ]
        for (suite, label) in suites {
            // Fresh sessions per case, as the peer has: a receiver must see the sender's
            // packets from the first, or it cannot guess their rollover counter.
            let protectLoop = try SRTPBenchmarkLoop(suite: suite)
            context.measure(BenchmarkCase("protect-\(label)", countsAllocations: true, implementations: [
                .ours { iterations in try protectLoop.protect(iterations) },
                .program(peer),
            ]))
            let roundTripLoop = try SRTPBenchmarkLoop(suite: suite)
            context.measure(BenchmarkCase("round-trip-\(label)", countsAllocations: true, implementations: [
                .ours { iterations in try roundTripLoop.roundTrip(iterations) },
                .program(peer),
            ]))
        }
    }
}

/// The sessions and buffers one suite's loops share across batches, set up as in
/// `srtp_loop.c`: the same key, a 172-octet RTP packet (12-octet header, 160-octet payload)
/// copied into the buffer and given the next sequence number before each protect.
private final class SRTPBenchmarkLoop {
    private var sender: SRTPOutboundSession
    private var receiver: SRTPInboundSession
    private let plaintext: UnsafeMutableRawBufferPointer
    private let buffer: UnsafeMutableRawBufferPointer
    private var sequence: UInt16 = 0

    private static let headerLength = 12
    private static let payloadLength = 160

    init(suite: SRTPCryptoSuite) throws {
        let key = try SRTPMasterKey(suite: suite, keyAndSalt: (0..<UInt8(suite.keyMaterialLength)).map { $0 &* 37 })
        sender = try SRTPOutboundSession(key: key)
        receiver = try SRTPInboundSession(key: key)
        let packetLength = Self.headerLength + Self.payloadLength
        plaintext = .allocate(byteCount: packetLength, alignment: 8)
        buffer = .allocate(byteCount: packetLength + suite.rtcpOverhead, alignment: 8)
        let header: [UInt8] = [0x80, 0x08, 0, 0, 0, 0, 0, 160, 0x12, 0x34, 0x56, 0x78]
        plaintext.copyBytes(from: header + (0..<Self.payloadLength).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    }

    deinit {
        plaintext.deallocate()
        buffer.deallocate()
    }

    /// Copies the packet in, gives it the next sequence number and protects it.
    private func protectNext() throws(SRTPError) -> Int {
        buffer.copyMemory(from: UnsafeRawBufferPointer(plaintext))
        sequence &+= 1
        buffer[2] = UInt8(truncatingIfNeeded: sequence >> 8)
        buffer[3] = UInt8(truncatingIfNeeded: sequence)
        return try sender.protectRTP(in: buffer, length: plaintext.count)
    }

    func protect(_ iterations: Int) throws(SRTPError) {
        for _ in 0..<iterations {
            blackHole(try protectNext())
        }
    }

    func roundTrip(_ iterations: Int) throws(SRTPError) {
        for _ in 0..<iterations {
            blackHole(try receiver.unprotectRTP(in: buffer, length: try protectNext()))
        }
    }
}
