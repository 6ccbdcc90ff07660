import BenchmarkHarness
import CSRTP
import RTP

extension BenchmarkSuite {
    /// SRTP protect, and protect then unprotect, of a 160-octet payload through our sessions,
    /// against the same loop in plain C on libsrtp2 (`Benchmarks/peers/srtp_loop.c`) and against
    /// the same loop calling libsrtp2 directly in this process (which isolates the wrapper's
    /// cost from any difference between processes), for AES-CM-128 with an 80-bit tag and
    /// AEAD-AES-128-GCM.
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
            let directProtectLoop = try DirectSRTPLoop(suite: suite)
            context.measure(BenchmarkCase("protect-\(label)", countsAllocations: true, implementations: [
                .ours { iterations in try protectLoop.protect(iterations) },
                .program(peer),
                .peer(DirectSRTPLoop.name) { iterations in try directProtectLoop.protect(iterations) },
            ]))
            let roundTripLoop = try SRTPBenchmarkLoop(suite: suite)
            let directRoundTripLoop = try DirectSRTPLoop(suite: suite)
            context.measure(BenchmarkCase("round-trip-\(label)", countsAllocations: true, implementations: [
                .ours { iterations in try roundTripLoop.roundTrip(iterations) },
                .program(peer),
                .peer(DirectSRTPLoop.name) { iterations in try directRoundTripLoop.roundTrip(iterations) },
            ]))
        }
    }
}

/// The packet every loop protects, as in `srtp_loop.c`: the same key, a 172-octet RTP packet
/// (12-octet header, 160-octet payload) copied into a buffer and given the next sequence number
/// before each protect.
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

    /// The key and salt both loops use: octet i is i × 37.
    static func keyAndSalt(for suite: SRTPCryptoSuite) -> [UInt8] {
        (0..<UInt8(suite.keyMaterialLength)).map { $0 &* 37 }
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
        let key = try SRTPMasterKey(suite: suite, keyAndSalt: SRTPLoopPacket.keyAndSalt(for: suite))
        sender = try SRTPOutboundSession(key: key)
        receiver = try SRTPInboundSession(key: key)
        packet = SRTPLoopPacket(suite: suite)
    }

    // Each batch takes the sessions `inout` once, as the thread that owns a session does; a
    // mutating call on a class's stored property would instead pay a dynamic exclusivity check
    // per packet, which measures the benchmark's storage rather than the wrapper.
    func protect(_ iterations: Int) throws(SRTPError) {
        try Self.protect(iterations, packet: packet, sender: &sender)
    }

    func roundTrip(_ iterations: Int) throws(SRTPError) {
        try Self.roundTrip(iterations, packet: packet, sender: &sender, receiver: &receiver)
    }

    /// Copies the packet in, gives it the next sequence number and protects it.
    private static func protectNext(_ packet: SRTPLoopPacket, sender: inout SRTPOutboundSession) throws(SRTPError) -> Int {
        packet.next()
        return try sender.protectRTP(in: packet.buffer, length: packet.plaintext.count)
    }

    private static func protect(
        _ iterations: Int, packet: SRTPLoopPacket, sender: inout SRTPOutboundSession
    ) throws(SRTPError) {
        for _ in 0..<iterations {
            blackHole(try protectNext(packet, sender: &sender))
        }
    }

    private static func roundTrip(
        _ iterations: Int, packet: SRTPLoopPacket, sender: inout SRTPOutboundSession,
        receiver: inout SRTPInboundSession
    ) throws(SRTPError) {
        for _ in 0..<iterations {
            blackHole(try receiver.unprotectRTP(in: packet.buffer, length: try protectNext(packet, sender: &sender)))
        }
    }
}

/// The same loops calling libsrtp2 directly, as `srtp_loop.c` does, but in this process.
private final class DirectSRTPLoop {
    private let packet: SRTPLoopPacket
    /// The implementation's name in reports.
    static var name: String { "\(String(cString: srtp_get_version_string())), direct calls in process" }

    private var sender: srtp_t?
    private var receiver: srtp_t?
    private var key: [UInt8]

    /// A libsrtp status other than `ok`.
    struct Failure: Error {
        let status: srtp_err_status_t
    }

    init(suite: SRTPCryptoSuite) throws {
        key = SRTPLoopPacket.keyAndSalt(for: suite)
        packet = SRTPLoopPacket(suite: suite)
        // No srtp_init here: libsrtp wants it once per process, and our sessions, created
        // first, have done it.
        sender = try create(suite: suite, direction: ssrc_any_outbound)
        receiver = try create(suite: suite, direction: ssrc_any_inbound)
    }

    deinit {
        if let sender { srtp_dealloc(sender) }
        if let receiver { srtp_dealloc(receiver) }
    }

    private func check(_ status: srtp_err_status_t) throws {
        guard status == srtp_err_status_ok else { throw Failure(status: status) }
    }

    private func create(suite: SRTPCryptoSuite, direction: srtp_ssrc_type_t) throws -> srtp_t? {
        var policy = srtp_policy_t()
        if suite == .aeadAES128GCM {
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp)
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp)
        } else {
            srtp_crypto_policy_set_rtp_default(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
        }
        policy.ssrc.type = direction
        policy.window_size = 128
        var session: srtp_t?
        try key.withUnsafeMutableBufferPointer { key in
            policy.key = key.baseAddress
            try check(srtp_create(&session, &policy))
        }
        return session
    }

    private func protectNext() throws -> Int32 {
        packet.next()
        var length = Int32(packet.plaintext.count)
        try check(srtp_protect(sender, packet.buffer.baseAddress, &length))
        return length
    }

    func protect(_ iterations: Int) throws {
        for _ in 0..<iterations {
            blackHole(try protectNext())
        }
    }

    func roundTrip(_ iterations: Int) throws {
        for _ in 0..<iterations {
            var length = try protectNext()
            try check(srtp_unprotect(receiver, packet.buffer.baseAddress, &length))
            blackHole(length)
        }
    }
}
