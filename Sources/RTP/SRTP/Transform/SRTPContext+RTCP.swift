extension SRTPContext {
    /// The length of the RTCP header left in clear: the first header and the sender's SSRC.
    private static let rtcpHeaderLength = 8

    /// Encrypts and authenticates the RTCP compound packet of `length` octets at `packet` in
    /// place (RFC 3711 §3.4, RFC 7714 §9.2) with the next SRTCP index, and returns the SRTCP
    /// length: packet, [GCM tag,] E ‖ index, MKI, [HMAC tag].
    mutating func protectRTCP(_ packet: UnsafeMutableRawPointer, length: Int) throws(SRTPError) -> Int {
        guard length >= Self.rtcpHeaderLength else { throw .malformedPacket(.protectRTCP) }
        let ssrc = packet.bigEndianUInt32(at: 4)
        let slot = streams.slotAdding(ssrc)
        guard let index = streams[slot].rtcp.nextSentIndex() else { throw .keyExhausted(.protectRTCP) }
        var trailer = (SRTCPTrailer.encryptedFlag | index).bigEndian
        let mkiLength = masterKeyIdentifier.count
        let encryptedCount = length - Self.rtcpHeaderLength
        if suite.isAEAD {
            var iv = Self.galoisCounterIV(salt: rtcpKeys.salt, ssrc: ssrc, srtcpIndex: index)
            let sealed = withUnsafeBytes(of: &iv) { iv in
                withUnsafeBytes(of: &trailer) { trailer in
                    rtcpKeys.cipher.seal(
                        iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(start: packet, count: Self.rtcpHeaderLength),
                        trailingAAD: trailer, packet + Self.rtcpHeaderLength, count: encryptedCount, tag: packet + length)
                }
            }
            guard sealed else { throw .cryptoLibraryFailure("EVP_EncryptFinal_ex (AES-GCM)") }
            let trailerOffset = length + AESCipher.galoisCounterTagLength
            packet.storeBytes(of: trailer, toByteOffset: trailerOffset, as: UInt32.self)
            writeMasterKeyIdentifier(packet, at: trailerOffset + SRTCPTrailer.length)
            return trailerOffset + SRTCPTrailer.length + mkiLength
        }
        var iv = Self.counterIV(salt: rtcpKeys.salt, ssrc: ssrc, index: UInt64(index))
        let encrypted = withUnsafeBytes(of: &iv) { iv in
            rtcpKeys.cipher.applyKeystream(iv: iv.baseAddress!, to: packet + Self.rtcpHeaderLength, count: encryptedCount)
        }
        guard encrypted else { throw .cryptoLibraryFailure("EVP_EncryptUpdate (AES-CM)") }
        packet.storeBytes(of: trailer, toByteOffset: length, as: UInt32.self)
        let authenticatedLength = length + SRTCPTrailer.length
        writeMasterKeyIdentifier(packet, at: authenticatedLength)
        let tagLength = rtcpTagLength.octets(for: suite)
        rtcpKeys.authentication.authenticate(
            UnsafeRawBufferPointer(start: packet, count: authenticatedLength),
            suffix: UnsafeRawBufferPointer(start: nil, count: 0), tagLength: tagLength,
            into: packet + authenticatedLength + mkiLength)
        return authenticatedLength + mkiLength + tagLength
    }

    /// Verifies and decrypts the SRTCP packet of `length` octets at `packet` in place, taking
    /// its HMAC tag to be `tagLength` long, and returns the RTCP length. Only packets with the
    /// E flag set are taken: our sessions always encrypt (no authentication-only SRTCP).
    mutating func unprotectRTCP(
        _ packet: UnsafeMutableRawPointer, length: Int, tagLength: SRTCPTagLength
    ) throws(SRTPError) -> Int {
        guard length >= Self.rtcpHeaderLength + SRTCPTrailer.length else { throw .malformedPacket(.unprotectRTCP) }
        let ssrc = packet.bigEndianUInt32(at: 4)
        let existing = streams.slot(of: ssrc)
        let mkiLength = masterKeyIdentifier.count
        let tagLength = suite.isAEAD ? AESCipher.galoisCounterTagLength : tagLength.octets(for: suite)
        guard length >= Self.rtcpHeaderLength + tagLength + mkiLength + SRTCPTrailer.length else {
            throw .malformedPacket(.unprotectRTCP)
        }
        // GCM: ciphertext, tag, trailer, MKI. HMAC: ciphertext, trailer, MKI, tag.
        let trailerOffset =
            suite.isAEAD
            ? length - mkiLength - SRTCPTrailer.length
            : length - tagLength - mkiLength - SRTCPTrailer.length
        try checkMasterKeyIdentifier(packet, at: trailerOffset + SRTCPTrailer.length, operation: .unprotectRTCP)
        let trailer = packet.bigEndianUInt32(at: trailerOffset)
        let encrypted = trailer & SRTCPTrailer.encryptedFlag != 0
        // Without the E flag, an HMAC packet is refused at once; an AEAD one (whose flag is
        // authenticated data) after the replay check, as a packet that cannot authenticate:
        // the order and verdicts libsrtp has.
        guard encrypted || suite.isAEAD else { throw .malformedPacket(.unprotectRTCP) }
        let index = trailer & SRTCPIndexState.maximumIndex
        let state = existing.map { streams[$0].rtcp } ?? SRTCPIndexState()
        try Self.check(state.verdict(index: index), operation: .unprotectRTCP)
        guard encrypted else { throw .authenticationFailed(.unprotectRTCP) }

        let encryptedEnd = suite.isAEAD ? trailerOffset - tagLength : trailerOffset
        let encryptedCount = encryptedEnd - Self.rtcpHeaderLength
        if suite.isAEAD {
            var iv = Self.galoisCounterIV(salt: rtcpKeys.salt, ssrc: ssrc, srtcpIndex: index)
            let opened = withUnsafeBytes(of: &iv) { iv in
                rtcpKeys.cipher.open(
                    iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(start: packet, count: Self.rtcpHeaderLength),
                    trailingAAD: UnsafeRawBufferPointer(start: packet + trailerOffset, count: SRTCPTrailer.length),
                    packet + Self.rtcpHeaderLength, count: encryptedCount, tag: packet + encryptedEnd)
            }
            guard opened else { throw .authenticationFailed(.unprotectRTCP) }
        } else {
            let authentic = rtcpKeys.authentication.verify(
                UnsafeRawBufferPointer(start: packet, count: trailerOffset + SRTCPTrailer.length),
                suffix: UnsafeRawBufferPointer(start: nil, count: 0), tagLength: tagLength,
                tag: packet + length - tagLength)
            guard authentic else { throw .authenticationFailed(.unprotectRTCP) }
            var iv = Self.counterIV(salt: rtcpKeys.salt, ssrc: ssrc, index: UInt64(index))
            let decrypted = withUnsafeBytes(of: &iv) { iv in
                rtcpKeys.cipher.applyKeystream(iv: iv.baseAddress!, to: packet + Self.rtcpHeaderLength, count: encryptedCount)
            }
            guard decrypted else { throw .cryptoLibraryFailure("EVP_EncryptUpdate (AES-CM)") }
        }
        let slot = existing ?? streams.slotAdding(ssrc)
        streams[slot].rtcp.record(index: index)
        return encryptedEnd
    }

    /// The AES-GCM IV of an SRTCP packet (RFC 7714 §9.1): 00 00 ‖ SSRC ‖ 00 00 ‖ 0 ‖ index XOR
    /// the salt.
    static func galoisCounterIV(salt: (UInt64, UInt64), ssrc: UInt32, srtcpIndex: UInt32) -> (UInt64, UInt64) {
        (salt.0 ^ (UInt64(ssrc) << 16).bigEndian, salt.1 ^ (UInt64(srtcpIndex) << 32).bigEndian)
    }
}
