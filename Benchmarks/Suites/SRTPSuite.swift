import BenchmarkHarness
import COpenSSLSRTPLoop
import RTP
import SRTPReference

extension BenchmarkSuite {
    /// SRTP protect, and protect then unprotect, of a 160-octet payload for every suite: our
    /// native transform against libsrtp2 called in this process and against a plain C loop on
    /// OpenSSL EVP doing the same transform (`Benchmarks/OpenSSLSRTPLoop`, the physical
    /// reference). For AES_CM_128_HMAC_SHA1_80 the C loop also runs with OpenSSL's two stock
    /// HMAC paths (a kept `HMAC_CTX`, a kept `EVP_MAC_CTX`), which show why ours precomputes the
    /// SHA-1 states instead.
    static let srtp = BenchmarkSuite(
        name: "srtp",
        summary: "SRTP protect and protect+unprotect of a 160-octet payload: native vs libsrtp2 vs a C loop on OpenSSL EVP"
    ) { context in
        for suite in SRTPCryptoSuite.allCases {
            let label = suite.benchmarkLabel
            for roundTrip in [false, true] {
                // Fresh sessions per case: a receiver must see the sender's packets from the
                // first, or it cannot guess their rollover counter.
                let ours = try SRTPBenchmarkLoop(suite: suite)
                let libsrtp = try LibSRTPBenchmarkLoop(suite: suite)
                var implementations: [Implementation] = [
                    .ours { iterations in try ours.run(iterations, roundTrip: roundTrip) },
                    .peer(LibSRTPBenchmarkLoop.name) { iterations in try libsrtp.run(iterations, roundTrip: roundTrip) },
                ]
                let methods: [mb_hmac_method] =
                    suite == .aes128CounterModeHMACSHA1Tag80 && !roundTrip
                    ? [mb_hmac_precomputed_sha1, mb_hmac_kept_hmac_ctx, mb_hmac_evp_mac] : [mb_hmac_precomputed_sha1]
                for method in methods {
                    let loop = try OpenSSLCLoop(suite: suite, hmac: method)
                    implementations.append(.peer(loop.name) { iterations in try loop.run(iterations, roundTrip: roundTrip) })
                }
                let name = (roundTrip ? "round-trip-" : "protect-") + label
                context.measure(BenchmarkCase(name, countsAllocations: true, implementations: implementations))
            }
        }
    }
}

extension SRTPCryptoSuite {
    /// The suite's short name in case names, such as `aes-cm-128-80`.
    fileprivate var benchmarkLabel: String {
        switch self {
        case .aes128CounterModeHMACSHA1Tag80: "aes-cm-128-80"
        case .aes128CounterModeHMACSHA1Tag32: "aes-cm-128-32"
        case .aes256CounterModeHMACSHA1Tag80: "aes-cm-256-80"
        case .aes256CounterModeHMACSHA1Tag32: "aes-cm-256-32"
        case .aeadAES128GCM: "aes-gcm-128"
        case .aeadAES256GCM: "aes-gcm-256"
        }
    }
}

/// The packet every loop protects, as the C loop's: a 172-octet RTP packet (12-octet header,
/// 160-octet payload) copied into a buffer and given the next sequence number before each protect.
private final class SRTPLoopPacket {
    let plaintext: UnsafeMutableRawBufferPointer
    let buffer: UnsafeMutableRawBufferPointer
    private var sequence: UInt16 = 0

    private static let headerLength = 12
    private static let payloadLength = 160

    init(suite: SRTPCryptoSuite) {
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

    /// The key both sessions use: octet i is i × 37.
    static func key(for suite: SRTPCryptoSuite) throws -> SRTPMasterKey {
        try SRTPMasterKey(suite: suite, keyAndSalt: (0..<UInt8(suite.keyMaterialLength)).map { $0 &* 37 })
    }

    /// Copies the packet into the buffer with the next sequence number.
    func next() {
        buffer.copyMemory(from: UnsafeRawBufferPointer(plaintext))
        sequence &+= 1
        buffer[2] = UInt8(truncatingIfNeeded: sequence >> 8)
        buffer[3] = UInt8(truncatingIfNeeded: sequence)
    }
}

/// The loops through our sessions.
private final class SRTPBenchmarkLoop {
    private let packet: SRTPLoopPacket
    private var sender: SRTPOutboundSession
    private var receiver: SRTPInboundSession

    init(suite: SRTPCryptoSuite) throws {
        let key = try SRTPLoopPacket.key(for: suite)
        sender = try SRTPOutboundSession(key: key)
        receiver = try SRTPInboundSession(key: key)
        packet = SRTPLoopPacket(suite: suite)
    }

    // Each batch takes the sessions `inout` once, as the thread that owns a session does; a
    // mutating call on a class's stored property would instead pay a dynamic exclusivity check
    // per packet, which measures the benchmark's storage rather than the transform.
    func run(_ iterations: Int, roundTrip: Bool) throws(SRTPError) {
        try Self.run(iterations, roundTrip: roundTrip, packet: packet, sender: &sender, receiver: &receiver)
    }

    private static func run(
        _ iterations: Int, roundTrip: Bool, packet: SRTPLoopPacket, sender: inout SRTPOutboundSession,
        receiver: inout SRTPInboundSession
    ) throws(SRTPError) {
        for _ in 0..<iterations {
            packet.next()
            var length = try sender.protectRTP(in: packet.buffer, length: packet.plaintext.count)
            if roundTrip {
                length = try receiver.unprotectRTP(in: packet.buffer, length: length)
            }
            blackHole(length)
        }
    }
}

/// The same loops through libsrtp2, in this process.
private final class LibSRTPBenchmarkLoop {
    /// The implementation's name in reports.
    static var name: String { "\(LibSRTPSession.version), in process" }

    private let packet: SRTPLoopPacket
    private let sender: LibSRTPSession
    private let receiver: LibSRTPSession

    init(suite: SRTPCryptoSuite) throws {
        let key = try SRTPLoopPacket.key(for: suite)
        sender = try LibSRTPSession(key: key, direction: .outbound)
        receiver = try LibSRTPSession(key: key, direction: .inbound)
        packet = SRTPLoopPacket(suite: suite)
    }

    func run(_ iterations: Int, roundTrip: Bool) throws(SRTPError) {
        for _ in 0..<iterations {
            packet.next()
            var length = try sender.transform(.protectRTP, buffer: packet.buffer, length: packet.plaintext.count)
            if roundTrip {
                length = try receiver.transform(.unprotectRTP, buffer: packet.buffer, length: length)
            }
            blackHole(length)
        }
    }
}

/// The plain C loop on OpenSSL EVP (`Benchmarks/OpenSSLSRTPLoop`).
private final class OpenSSLCLoop {
    /// The implementation's name in reports, with the HMAC path when it is not ours.
    let name: String
    private let loop: OpaquePointer

    /// The C loop failed to set up or to transform.
    struct Failure: Error {}

    init(suite: SRTPCryptoSuite, hmac: mb_hmac_method) throws {
        let aead = suite == .aeadAES128GCM || suite == .aeadAES256GCM
        guard let loop = mb_srtp_loop_create(aead ? 1 : 0, Int32(suite.masterKeyLength), Int32(suite.rtpTagLength), hmac) else {
            throw Failure()
        }
        self.loop = loop
        let method =
            switch hmac {
            case mb_hmac_kept_hmac_ctx: ", HMAC_CTX"
            case mb_hmac_evp_mac: ", EVP_MAC"
            default: ""
            }
        name = "C loop on \(String(cString: mb_srtp_loop_openssl_version()))\(method)"
    }

    deinit {
        mb_srtp_loop_free(loop)
    }

    func run(_ iterations: Int, roundTrip: Bool) throws {
        let length = roundTrip ? mb_srtp_loop_round_trip(loop, iterations) : mb_srtp_loop_protect(loop, iterations)
        guard length > 0 else { throw Failure() }
        blackHole(length)
    }
}
