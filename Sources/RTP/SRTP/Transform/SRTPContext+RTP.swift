extension SRTPContext {
    /// Encrypts and authenticates the RTP packet of `length` octets at `packet` in place
    /// (RFC 3711 §3.3, RFC 7714 §9.1) and returns the SRTP length: packet, [GCM tag,] MKI,
    /// [HMAC tag].
    mutating func protectRTP(_ packet: UnsafeMutableRawPointer, length: Int) throws(SRTPError) -> Int {
        let headerLength = try Self.rtpHeaderLength(packet, length: length, operation: .protectRTP)
        let ssrc = packet.bigEndianUInt32(at: 8)
        let slot = streams.slotAdding(ssrc)
        let estimate = streams[slot].rtp.estimate(sequence: packet.bigEndianUInt16(at: 2))
        try Self.check(streams[slot].rtp.verdict(estimate), operation: .protectRTP)
        streams[slot].rtp.record(estimate)
        let index = estimate.index

        let mkiLength = masterKeyIdentifier.count
        if suite.isAEAD {
            var iv = Self.galoisCounterIV(salt: rtpKeys.salt, ssrc: ssrc, index: index)
            let sealed = withUnsafeBytes(of: &iv) { iv in
                rtpKeys.cipher.seal(
                    iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(start: packet, count: headerLength),
                    trailingAAD: UnsafeRawBufferPointer(start: nil, count: 0),
                    packet + headerLength, count: length - headerLength, tag: packet + length)
            }
            guard sealed else { throw .cryptoLibraryFailure("EVP_EncryptFinal_ex (AES-GCM)") }
            writeMasterKeyIdentifier(packet, at: length + AESCipher.galoisCounterTagLength)
            return length + AESCipher.galoisCounterTagLength + mkiLength
        }
        var iv = Self.counterIV(salt: rtpKeys.salt, ssrc: ssrc, index: index)
        let encrypted = withUnsafeBytes(of: &iv) { iv in
            rtpKeys.cipher.applyKeystream(iv: iv.baseAddress!, to: packet + headerLength, count: length - headerLength)
        }
        guard encrypted else { throw .cryptoLibraryFailure("EVP_EncryptUpdate (AES-CM)") }
        writeMasterKeyIdentifier(packet, at: length)
        var rolloverCounter = UInt32(truncatingIfNeeded: index >> 16).bigEndian
        withUnsafeBytes(of: &rolloverCounter) { rolloverCounter in
            rtpKeys.authentication.authenticate(
                UnsafeRawBufferPointer(start: packet, count: length), suffix: rolloverCounter,
                tagLength: suite.rtpTagLength, into: packet + length + mkiLength)
        }
        return length + mkiLength + suite.rtpTagLength
    }

    /// Verifies and decrypts the SRTP packet of `length` octets at `packet` in place and returns
    /// the RTP length. The replay window is checked before the tag, and updated only once the
    /// packet has authenticated; so is a new SSRC's stream added.
    mutating func unprotectRTP(_ packet: UnsafeMutableRawPointer, length: Int) throws(SRTPError) -> Int {
        let headerLength = try Self.rtpHeaderLength(packet, length: length, operation: .unprotectRTP)
        let ssrc = packet.bigEndianUInt32(at: 8)
        let sequence = packet.bigEndianUInt16(at: 2)
        let existing = streams.slot(of: ssrc)
        let estimate: SRTPIndexEstimate
        if let existing {
            estimate = streams[existing].rtp.estimate(sequence: sequence)
            try Self.check(streams[existing].rtp.verdict(estimate), operation: .unprotectRTP)
        } else {
            estimate = SRTPIndexEstimate(index: UInt64(sequence), delta: Int64(sequence))
        }
        let index = estimate.index

        let mkiLength = masterKeyIdentifier.count
        let tagLength = suite.rtpTagLength
        let payloadEnd: Int
        if suite.isAEAD {
            try checkMasterKeyIdentifier(packet, at: length - mkiLength, operation: .unprotectRTP)
            payloadEnd = length - mkiLength - tagLength
            guard payloadEnd >= headerLength else { throw .malformedPacket(.unprotectRTP) }
            var iv = Self.galoisCounterIV(salt: rtpKeys.salt, ssrc: ssrc, index: index)
            let opened = withUnsafeBytes(of: &iv) { iv in
                rtpKeys.cipher.open(
                    iv: iv.baseAddress!, aad: UnsafeRawBufferPointer(start: packet, count: headerLength),
                    trailingAAD: UnsafeRawBufferPointer(start: nil, count: 0),
                    packet + headerLength, count: payloadEnd - headerLength, tag: packet + payloadEnd)
            }
            guard opened else { throw .authenticationFailed(.unprotectRTP) }
        } else {
            payloadEnd = length - tagLength - mkiLength
            guard payloadEnd >= headerLength else { throw .malformedPacket(.unprotectRTP) }
            try checkMasterKeyIdentifier(packet, at: payloadEnd, operation: .unprotectRTP)
            var rolloverCounter = UInt32(truncatingIfNeeded: index >> 16).bigEndian
            let authentic = withUnsafeBytes(of: &rolloverCounter) { rolloverCounter in
                rtpKeys.authentication.verify(
                    UnsafeRawBufferPointer(start: packet, count: payloadEnd), suffix: rolloverCounter,
                    tagLength: tagLength, tag: packet + length - tagLength)
            }
            guard authentic else { throw .authenticationFailed(.unprotectRTP) }
            var iv = Self.counterIV(salt: rtpKeys.salt, ssrc: ssrc, index: index)
            let decrypted = withUnsafeBytes(of: &iv) { iv in
                rtpKeys.cipher.applyKeystream(iv: iv.baseAddress!, to: packet + headerLength, count: payloadEnd - headerLength)
            }
            guard decrypted else { throw .cryptoLibraryFailure("EVP_EncryptUpdate (AES-CM)") }
        }
        let slot = existing ?? streams.slotAdding(ssrc)
        streams[slot].rtp.record(estimate)
        return payloadEnd
    }

    /// The length of the RTP header (fixed part, CSRCs, extension), which stays in clear; throws
    /// ``SRTPError/malformedPacket(_:)`` when the packet is shorter (libsrtp's
    /// `srtp_validate_rtp_header`: the version is not checked).
    static func rtpHeaderLength(
        _ packet: UnsafeMutableRawPointer, length: Int, operation: SRTPOperation
    ) throws(SRTPError) -> Int {
        guard length >= 12 else { throw .malformedPacket(operation) }
        let first = packet.load(as: UInt8.self)
        var headerLength = 12 + 4 * Int(first & 0x0F)
        if first & 0x10 != 0 {
            guard length >= headerLength + 4 else { throw .malformedPacket(operation) }
            headerLength += 4 + 4 * Int(packet.bigEndianUInt16(at: headerLength + 2))
        }
        guard length >= headerLength else { throw .malformedPacket(operation) }
        return headerLength
    }

    /// Throws the replay error a verdict other than fresh stands for.
    static func check(_ verdict: SRTPReplayVerdict, operation: SRTPOperation) throws(SRTPError) {
        switch verdict {
        case .fresh: return
        case .replayed: throw .replayed(operation)
        case .tooOld: throw .replayTooOld(operation)
        }
    }

    /// The AES-CM IV (RFC 3711 §4.1.1): (salt · 2^16) XOR (SSRC · 2^64) XOR (index · 2^16),
    /// for an SRTP packet index or an SRTCP index alike.
    static func counterIV(salt: (UInt64, UInt64), ssrc: UInt32, index: UInt64) -> (UInt64, UInt64) {
        (salt.0 ^ UInt64(ssrc).bigEndian, salt.1 ^ (index << 16).bigEndian)
    }

    /// The AES-GCM IV of an SRTP packet (RFC 7714 §8.1): 00 00 ‖ SSRC ‖ ROC ‖ SEQ XOR the salt.
    static func galoisCounterIV(salt: (UInt64, UInt64), ssrc: UInt32, index: UInt64) -> (UInt64, UInt64) {
        (salt.0 ^ (UInt64(ssrc) << 16 | (index >> 32 & 0xFFFF)).bigEndian, salt.1 ^ ((index & 0xFFFF_FFFF) << 32).bigEndian)
    }
}
