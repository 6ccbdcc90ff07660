@testable import RTP
import TestSupport
import Testing

/// The published vectors run on the native transform's own parts, which take session keys
/// directly (the sessions always derive theirs): RFC 3711 B.2 (AES-CM keystream) and B.3 (key
/// derivation), RFC 6188 §7 (AES-256 keystream and derivation), RFC 7714 §16–17 (AES-GCM SRTP
/// and SRTCP packets, IVs included) and libsrtp's raw AES-GCM cases.
@Suite("SRTP vectors on the native transform")
struct SRTPNativeVectorTests {
    /// The 16-octet IV tuple the transform uses, from hex.
    static func block(_ bytes: [UInt8]) -> (UInt64, UInt64) {
        var block = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &block) { block in
            bytes.prefix(16).withUnsafeBytes { block.copyMemory(from: $0) }
        }
        return block
    }

    static func octets(_ block: (UInt64, UInt64), count: Int = 16) -> [UInt8] {
        withUnsafeBytes(of: block) { Array($0.prefix(count)) }
    }

    /// A cipher context for `mode` keyed with `key` (a copy lent to it, since an array's
    /// `withUnsafeBytes` cannot return a non-copyable value).
    static func cipher(_ mode: AESCipher.Mode, key: [UInt8], encrypts: Bool = true) throws -> AESCipher {
        let lent = UnsafeMutableRawBufferPointer.allocate(byteCount: key.count, alignment: 1)
        defer { lent.deallocate() }
        lent.copyBytes(from: key)
        return try AESCipher(mode: mode, key: UnsafeRawBufferPointer(lent), encrypts: encrypts)
    }

    /// The counter-mode keystream of `key` from the counter block `iv`, `count` octets.
    static func keystream(key: [UInt8], iv: [UInt8], count: Int) throws -> [UInt8] {
        let cipher = try Self.cipher(.counter, key: key)
        var output = [UInt8](repeating: 0, count: count)
        let applied = output.withUnsafeMutableBytes { output in
            iv.withUnsafeBytes { cipher.applyKeystream(iv: $0.baseAddress!, to: output.baseAddress!, count: count) }
        }
        #expect(applied)
        return output
    }

    /// The derivation of `count` octets under `label` from a master key and salt.
    static func derive(masterKey: [UInt8], masterSalt: [UInt8], label: UInt8, count: Int) throws -> [UInt8] {
        let deriver = try Self.cipher(.counter, key: masterKey)
        var output = [UInt8](repeating: 0, count: count)
        try output.withUnsafeMutableBytes { output in
            try masterSalt.withUnsafeBytes { salt in
                try SRTPTrafficKeys.derive(output, label: label, with: deriver, masterSalt: salt)
            }
        }
        return output
    }

    @Test("RFC 3711 B.2: the AES-CM keystream, first and last blocks of the segment")
    func rfc3711Keystream() throws {
        let values = try srtpVectorSections("rfc3711-B.2-aes-cm-keystream.txt")[0]
        let rows = try Fixtures.vectorLines("srtp/rfc3711-B.2-aes-cm-keystream.txt")
            .filter { !$0.hasPrefix("#") && !$0.contains(":") }
            .map { $0.split(separator: " ") }
        #expect(rows.count == 6)
        for row in rows {
            let block = try Self.keystream(key: values.bytes("session_key"), iv: try #require([UInt8](hex: row[0])), count: 16)
            #expect(block == [UInt8](hex: row[1]), "counter \(row[0])")
        }
    }

    @Test("A long keystream is the blocks of each counter in turn: carries across both 64-bit halves and the 2^128 wrap, in several chunks")
    func keystreamCountsAcrossCarriesAndChunks() throws {
        let key = (0..<16).map { UInt8($0 &* 7 &+ 3) }
        // Four blocks before the low half overflows, and four before the whole counter wraps.
        for iv in [[UInt8](repeating: 0x5A, count: 8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFC], [UInt8](repeating: 0xFF, count: 15) + [0xFC]] {
            let count = 1000  // four 256-octet chunks, the last one partial and not a whole block
            let long = try Self.keystream(key: key, iv: iv, count: count)
            var counter = iv
            for start in stride(from: 0, to: count, by: 16) {
                let block = try Self.keystream(key: key, iv: counter, count: 16)
                #expect(Array(long[start..<min(start + 16, count)]) == Array(block.prefix(count - start)), "block at \(start)")
                for index in counter.indices.reversed() {
                    counter[index] &+= 1
                    if counter[index] != 0 { break }
                }
            }
        }
    }

    @Test("RFC 3711 B.3 and RFC 6188 §7: key derivation for SRTP and SRTCP, and the AES-256 keystream")
    func keyDerivation() throws {
        let b3 = try srtpVectorSections("rfc3711-B.3-key-derivation.txt")[0]
        let (key, salt) = (try b3.bytes("master_key"), try b3.bytes("master_salt"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 0, count: 16) == b3.bytes("cipher_key"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 1, count: 94) == b3.bytes("auth_key_94_octets"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 2, count: 14) == b3.bytes("cipher_salt"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 3, count: 16) == b3.bytes("srtcp_cipher_key"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 4, count: 20) == b3.bytes("srtcp_auth_key_20_octets"))
        #expect(try Self.derive(masterKey: key, masterSalt: salt, label: 5, count: 14) == b3.bytes("srtcp_cipher_salt"))

        let rfc6188 = try srtpVectorSections("rfc6188-7-aes-256-cm.txt")
        let stream = try #require(rfc6188.first { $0.name == "aes_256_cm_keystream" })
        #expect(
            try Self.keystream(key: stream.bytes("session_key"), iv: stream.bytes("iv"), count: 48)
                == stream.bytes("keystream_48_octets"))
        let derivation = try #require(rfc6188.first { $0.name.hasPrefix("aes_256_cm_prf") })
        let (key256, salt256) = (try derivation.bytes("master_key"), try derivation.bytes("master_salt"))
        #expect(try Self.derive(masterKey: key256, masterSalt: salt256, label: 0, count: 32) == derivation.bytes("cipher_key"))
        #expect(try Self.derive(masterKey: key256, masterSalt: salt256, label: 1, count: 20) == derivation.bytes("auth_key_20_octets"))
        #expect(try Self.derive(masterKey: key256, masterSalt: salt256, label: 2, count: 14) == derivation.bytes("cipher_salt"))
    }

    @Test("RFC 7714 §16–17: AES-GCM SRTP and SRTCP packets, their IVs, sealed and opened again")
    func rfc7714Packets() throws {
        let srtp = try srtpVectorSections("rfc7714-16-srtp-aead-aes-gcm.txt")
        let srtcp = try srtpVectorSections("rfc7714-17-srtcp-aead-aes-gcm.txt")
        let rtp = try srtp[0].bytes("plaintext_rtp_packet")
        let rtcp = try srtcp[0].bytes("plaintext_rtcp_packet")
        let rtpSalt = Self.block(try srtp[0].bytes("salt"))
        let rtcpSalt = Self.block(try srtcp[0].bytes("salt"))
        let index = UInt32(try #require(Int(srtcp[0].values["srtcp_index"] ?? "", radix: 16)))
        let rtpIV = SRTPContext.galoisCounterIV(salt: rtpSalt, ssrc: 0x5501_A0B2, index: 0xF17B)
        let rtcpIV = SRTPContext.galoisCounterIV(salt: rtcpSalt, ssrc: 0x4D61_7273, srtcpIndex: index)
        #expect(Self.octets(rtpIV, count: 12) == (try srtp[0].bytes("iv")))
        #expect(Self.octets(rtcpIV, count: 12) == (try srtcp[0].bytes("iv")))
        let trailer: [UInt8] = [0x80, 0x00, UInt8(index >> 8), UInt8(index & 0xFF)]
        for (rtpSection, rtcpSection) in zip(srtp.dropFirst(), srtcp.dropFirst()) {
            let key = try rtpSection.bytes("key")
            #expect(try Self.seal(rtp, headerLength: 12, trailer: [], key: key, iv: rtpIV) == rtpSection.bytes("protected_rtp_packet"))
            #expect(
                try Self.seal(rtcp, headerLength: 8, trailer: trailer, key: key, iv: rtcpIV) + trailer
                    == rtcpSection.bytes("protected_rtcp_packet"))
            let opened = try Self.open(try rtpSection.bytes("protected_rtp_packet"), headerLength: 12, key: key, iv: rtpIV)
            #expect(opened == rtp)
        }
    }

    @Test("libsrtp's raw AES-GCM-128 and -256 cases")
    func libsrtpGaloisCounterCases() throws {
        let gcm = try srtpVectorSections("libsrtp-2.5.0-cipher_test_cases-aes-gcm.txt")[0]
        let (iv, aad, plaintext) = (try gcm.bytes("iv"), try gcm.bytes("aad"), try gcm.bytes("plaintext"))
        for (key, output) in [("key_128", "aes_128_gcm_out"), ("key_256", "aes_256_gcm_out")] {
            let sealed = try Self.seal(aad + plaintext, headerLength: aad.count, trailer: [], key: gcm.bytes(key), iv: Self.block(iv))
            #expect(Array(sealed.dropFirst(aad.count)) == (try gcm.bytes(output)), "\(key)")
        }
    }

    /// `packet` with everything after `headerLength` encrypted under AES-GCM, the header and
    /// `trailer` authenticated, and the tag appended.
    static func seal(_ packet: [UInt8], headerLength: Int, trailer: [UInt8], key: [UInt8], iv: (UInt64, UInt64)) throws -> [UInt8] {
        let cipher = try Self.cipher(.galoisCounter, key: key)
        var buffer = packet + [UInt8](repeating: 0, count: 16)
        var iv = iv
        let sealed = buffer.withUnsafeMutableBytes { buffer in
            trailer.withUnsafeBytes { trailer in
                withUnsafeBytes(of: &iv) { iv in
                    cipher.seal(
                        iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(rebasing: buffer[..<headerLength]),
                        trailingAAD: trailer, buffer.baseAddress! + headerLength,
                        count: packet.count - headerLength, tag: buffer.baseAddress! + packet.count)
                }
            }
        }
        #expect(sealed)
        return buffer
    }

    /// `packet` (RTP header, ciphertext, tag) opened again, or `nil` when the tag does not verify.
    static func open(_ packet: [UInt8], headerLength: Int, key: [UInt8], iv: (UInt64, UInt64)) throws -> [UInt8]? {
        let cipher = try Self.cipher(.galoisCounter, key: key, encrypts: false)
        var buffer = packet
        var iv = iv
        let end = packet.count - 16
        let opened = buffer.withUnsafeMutableBytes { buffer in
            withUnsafeBytes(of: &iv) { iv in
                cipher.open(
                    iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(rebasing: buffer[..<headerLength]),
                    trailingAAD: UnsafeRawBufferPointer(start: nil, count: 0), buffer.baseAddress! + headerLength,
                    count: end - headerLength, tag: buffer.baseAddress! + end)
            }
        }
        return opened ? Array(buffer[..<end]) : nil
    }
}
