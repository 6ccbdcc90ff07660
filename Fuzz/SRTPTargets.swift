import RTP
import SRTPReference

extension FuzzTarget {
    /// The RTP module's SRTP and SDES fuzz targets.
    static let srtp: [FuzzTarget] = [sdesCrypto, srtpUnprotect, srtpDifferential]

    /// Our native SRTP transform against libsrtp2, driven by the input as a script
    /// (``SRTPDifferentialRun``): protect, sequence jumps and wraps, rollover counters, RTCP,
    /// raw octets, and deliveries of earlier packets intact, replayed, tampered or truncated.
    /// Any difference in protected octets, plaintext or verdict stops the run.
    ///
    /// One run per suite lives across inputs (creating libsrtp sessions on NSS costs
    /// milliseconds, a step microseconds), so histories grow long; every 4096th input of a
    /// suite (and its first) starts the suite's run afresh with a random key, replay window
    /// and SRTCP tag length read from the input.
    static let srtpDifferential = FuzzTarget(name: "srtp-differential") { bytes in
        guard let selector = bytes.first else { return }
        let suiteIndex = Int(selector) % SRTPCryptoSuite.allCases.count
        let runs = SRTPDifferentialRuns.shared
        runs.inputs[suiteIndex] &+= 1
        do {
            var script = SRTPScript(bytes)
            let run: SRTPDifferentialRun
            if let existing = runs.runs[suiteIndex], runs.inputs[suiteIndex] % 4096 != 0 {
                script = SRTPScript(bytes.dropFirst())
                run = existing
            } else {
                run = try SRTPDifferentialRun(script: &script)
                runs.runs[suiteIndex] = run
            }
            try run.run(&script, maximumSteps: 256)
        } catch let disagreement as SRTPDifferentialRun.Disagreement {
            // fatalError, not preconditionFailure: its message survives an optimised build.
            fatalError("native SRTP and libsrtp2 disagree: \(disagreement)")
        } catch {
            fatalError("SRTP sessions could not be created: \(error)")
        }
    }

    /// The SDES `a=crypto` parser on arbitrary text after `a=crypto:`; whatever parses must be
    /// written back to a line that parses to the same attribute.
    ///
    /// The text is parsed twice: right after `a=crypto:`, and after a valid tag, suite (chosen
    /// by the first octet) and `inline:`, so that the key, lifetime, MKI and session parameter
    /// checks are reached without the fuzzer having to guess a suite name.
    static let sdesCrypto = FuzzTarget(name: "sdes-crypto") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let suite = SRTPCryptoSuite.allCases[Int(bytes.first ?? 0) % SRTPCryptoSuite.allCases.count]
        for line in ["a=crypto:" + text, "a=crypto:1 \(suite.sdesName) inline:" + text.dropFirst()] {
            guard let attribute = try? SDESCryptoAttribute(parsing: line) else { continue }
            let reparsed = try? SDESCryptoAttribute(parsing: attribute.attributeLine)
            precondition(reparsed == attribute, "a written a=crypto line does not parse back")
        }
    }

    /// Arbitrary octets unprotected as SRTP or SRTCP (first octet: suite and which) under a
    /// fixed key, which must refuse them; then, with a fixed SSRC, protected and unprotected
    /// again, which must give them back whenever protect accepts them.
    ///
    /// The sessions live across inputs, as a long-running receiver's do. Forcing the SSRC
    /// keeps their number of streams at one each; sender and receiver see the same protected
    /// packets in the same order, so the receiver accepts what the sender took.
    static let srtpUnprotect = FuzzTarget(name: "srtp-unprotect") { bytes in
        guard let selector = bytes.first else { return }
        let sessions = SRTPFuzzSessions.all[Int(selector & 0x7F) % SRTPFuzzSessions.all.count]
        let rtcp = selector & 0x80 != 0
        let packet = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: packet.count + sessions.suite.rtcpOverhead, alignment: 8)
        defer { buffer.deallocate() }

        buffer.copyMemory(from: packet)
        precondition(
            sessions.unprotect(buffer, length: packet.count, rtcp: rtcp) == nil,
            "a packet of arbitrary octets authenticated")

        buffer.copyMemory(from: packet)
        let ssrcOffset = rtcp ? 4 : 8
        if packet.count >= ssrcOffset + 4 {
            buffer[ssrcOffset..<(ssrcOffset + 4)].copyBytes(from: [0x0F, 0x0F, 0x0F, 0x0F])
        }
        let sent = Array(buffer.prefix(packet.count))
        guard let protectedLength = sessions.protect(buffer, length: packet.count, rtcp: rtcp) else { return }
        let restoredLength = sessions.unprotect(buffer, length: protectedLength, rtcp: rtcp)
        precondition(
            restoredLength == packet.count && buffer.prefix(packet.count).elementsEqual(sent),
            "a packet we protected did not unprotect to itself")
    }
}

/// One sender and one receiver under a fixed key, for one suite, kept across fuzz inputs.
///
/// `@unchecked Sendable`: libFuzzer calls the target from one thread only.
private final class SRTPFuzzSessions: @unchecked Sendable {
    let suite: SRTPCryptoSuite
    private var sender: SRTPOutboundSession
    private var receiver: SRTPInboundSession

    /// One pair per suite; a suite whose sessions cannot be created stops the run at once.
    static let all: [SRTPFuzzSessions] = SRTPCryptoSuite.allCases.map { suite in
        guard let key = try? SRTPMasterKey(suite: suite, keyAndSalt: (0..<UInt8(suite.keyMaterialLength)).map { $0 &* 37 }),
            let sessions = try? SRTPFuzzSessions(key: key)
        else { preconditionFailure("no SRTP session for \(suite)") }
        return sessions
    }

    private init(key: SRTPMasterKey) throws(SRTPError) {
        suite = key.suite
        sender = try SRTPOutboundSession(key: key)
        receiver = try SRTPInboundSession(key: key)
    }

    /// The protected length, or `nil` when protect refused the packet.
    func protect(_ buffer: UnsafeMutableRawBufferPointer, length: Int, rtcp: Bool) -> Int? {
        rtcp ? try? sender.protectRTCP(in: buffer, length: length) : try? sender.protectRTP(in: buffer, length: length)
    }

    /// The unprotected length, or `nil` when unprotect refused the packet.
    func unprotect(_ buffer: UnsafeMutableRawBufferPointer, length: Int, rtcp: Bool) -> Int? {
        rtcp ? try? receiver.unprotectRTCP(in: buffer, length: length) : try? receiver.unprotectRTP(in: buffer, length: length)
    }
}

/// The differential runs kept across fuzz inputs, one per suite.
///
/// `@unchecked Sendable`: libFuzzer calls the target from one thread only.
private final class SRTPDifferentialRuns: @unchecked Sendable {
    static let shared = SRTPDifferentialRuns()
    var runs = [SRTPDifferentialRun?](repeating: nil, count: SRTPCryptoSuite.allCases.count)
    /// Inputs seen per suite.
    var inputs = [Int](repeating: 0, count: SRTPCryptoSuite.allCases.count)
}
