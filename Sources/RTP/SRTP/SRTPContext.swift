/// The native SRTP/SRTCP transform of one session (RFC 3711, RFC 6188, RFC 7714) on OpenSSL's
/// libcrypto: the session keys of RTP and RTCP in cipher and HMAC contexts created once, and
/// per-SSRC indices and replay windows in storage allocated once. Every transform works in
/// place and allocates nothing.
///
/// Where the RFCs leave a choice the transform does what libsrtp 2 does, so the two agree
/// octet for octet and verdict for verdict (the differential tests and fuzz target check it):
/// the first SRTCP index sent is 1, SRTCP keeps a 128-index window, an unknown SSRC's first
/// packet is taken with a rollover counter of 0.
///
/// The keys live in the OpenSSL contexts and the HMAC states, which are wiped when the
/// context ends; the context keeps no copy of the master key.
struct SRTPContext: ~Copyable {
    /// Which transforms the session runs: protect for what we send, unprotect for what we receive.
    enum Direction {
        case outbound
        case inbound
    }

    /// The suite the session was created for.
    let suite: SRTPCryptoSuite
    let rtpKeys: SRTPTrafficKeys
    let rtcpKeys: SRTPTrafficKeys
    var streams: SRTPStreamTable
    let masterKeyIdentifier: [UInt8]
    let rtcpTagLength: SRTCPTagLength
    let acceptsEitherRTCPTagLength: Bool

    /// Derives the session keys of `key` for `direction` and allocates the stream table.
    init(key: SRTPMasterKey, direction: Direction, options: SRTPSessionOptions) throws(SRTPError) {
        try options.validate()
        let encrypts = direction == .outbound
        let rtpKeys = try key.withUnsafeBytes { master throws(SRTPError) in
            try SRTPTrafficKeys(suite: key.suite, master: master, traffic: .rtp, encrypts: encrypts)
        }
        let rtcpKeys = try key.withUnsafeBytes { master throws(SRTPError) in
            try SRTPTrafficKeys(suite: key.suite, master: master, traffic: .rtcp, encrypts: encrypts)
        }
        suite = key.suite
        self.rtpKeys = rtpKeys
        self.rtcpKeys = rtcpKeys
        let windowLength = (options.replayWindowSize + 31) / 32 * 32
        streams = SRTPStreamTable(capacity: options.maximumStreamCount, windowLength: windowLength)
        masterKeyIdentifier = options.masterKeyIdentifier
        rtcpTagLength = options.rtcpTagLength
        acceptsEitherRTCPTagLength = options.acceptsEitherRTCPTagLength
    }

    /// Runs one transform in place on the first `length` octets of `buffer`, and returns the
    /// new length; counts the outcome in `statistics`.
    mutating func transform(
        _ operation: SRTPOperation, buffer: UnsafeMutableRawBufferPointer, length: Int,
        counting statistics: inout SRTPStatistics
    ) throws(SRTPError) -> Int {
        do {
            let newLength = try transform(operation, buffer: buffer, length: length)
            switch operation {
            case .protectRTP, .protectRTCP: statistics.protectedPackets &+= 1
            case .unprotectRTP, .unprotectRTCP: statistics.unprotectedPackets &+= 1
            }
            return newLength
        } catch {
            statistics.record(error)
            throw error
        }
    }

    /// Reports to `visit` the memory outside this value that an SRTP (not SRTCP) packet's
    /// transform reads and writes: the streams and replay windows, the cipher context and the
    /// HMAC states. For warming it into the cache ahead of the packet, where one thread serves
    /// many sessions in turn; what `visit` may do with it is read it.
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        streams.hotRegions(visit)
        rtpKeys.cipher.hotRegions(visit)
        if !suite.isAEAD { rtpKeys.authentication.hotRegions(visit) }
    }

    /// Sets the rollover counter for `ssrc`'s next SRTP packets (adding the stream if it has
    /// none yet), as libsrtp 2.5's `srtp_set_stream_roc` (see ``SRTPReplayWindow/setRolloverCounter(_:)``).
    mutating func setRolloverCounter(_ rolloverCounter: UInt32, ssrc: UInt32) {
        let slot = streams.slotAdding(ssrc)
        streams[slot].rtp.setRolloverCounter(rolloverCounter)
    }

    /// Checks that the buffer holds `length` octets and has room for what the transform adds,
    /// then runs it.
    private mutating func transform(
        _ operation: SRTPOperation, buffer: UnsafeMutableRawBufferPointer, length: Int
    ) throws(SRTPError) -> Int {
        let growth =
            switch operation {
            case .protectRTP: suite.rtpTagLength + masterKeyIdentifier.count
            case .protectRTCP: rtcpTagLength.octets(for: suite) + SRTCPTrailer.length + masterKeyIdentifier.count
            case .unprotectRTP, .unprotectRTCP: 0
            }
        guard length >= 0, length <= buffer.count, length <= Int(Int32.max) - growth else {
            throw .invalidLength(operation, length: length, bufferCount: buffer.count)
        }
        guard buffer.count - length >= growth else {
            throw .bufferTooSmall(operation, required: length + growth, available: buffer.count)
        }
        guard length > 0, let packet = buffer.baseAddress else { throw .malformedPacket(operation) }
        switch operation {
        case .protectRTP: return try protectRTP(packet, length: length)
        case .unprotectRTP: return try unprotectRTP(packet, length: length)
        case .protectRTCP: return try protectRTCP(packet, length: length)
        case .unprotectRTCP:
            do {
                return try unprotectRTCP(packet, length: length, tagLength: rtcpTagLength)
            } catch {
                guard acceptsEitherRTCPTagLength,
                    rtcpTagLength.octets(for: suite) != rtcpTagLength.other.octets(for: suite),
                    let newLength = try? unprotectRTCP(packet, length: length, tagLength: rtcpTagLength.other)
                else { throw error }
                return newLength
            }
        }
    }

    /// Throws ``SRTPError/unknownMasterKeyIdentifier(_:)`` unless the packet carries our MKI at
    /// `offset` (nothing to check without one).
    func checkMasterKeyIdentifier(
        _ packet: UnsafeMutableRawPointer, at offset: Int, operation: SRTPOperation
    ) throws(SRTPError) {
        guard !masterKeyIdentifier.isEmpty else { return }
        let matches = masterKeyIdentifier.withUnsafeBytes { expected in
            offset >= 0 && UnsafeRawBufferPointer(start: packet + offset, count: expected.count).elementsEqual(expected)
        }
        guard matches else { throw .unknownMasterKeyIdentifier(operation) }
    }

    /// Writes our MKI, if any, at `offset`.
    func writeMasterKeyIdentifier(_ packet: UnsafeMutableRawPointer, at offset: Int) {
        masterKeyIdentifier.withUnsafeBytes { identifier in
            guard let start = identifier.baseAddress else { return }
            (packet + offset).copyMemory(from: start, byteCount: identifier.count)
        }
    }
}

/// The E flag and 31-bit SRTCP index after an SRTCP packet's encrypted portion (RFC 3711 §3.4).
enum SRTCPTrailer {
    /// Its length in octets.
    static let length = 4
    /// The E flag: the packet's encrypted portion is encrypted.
    static let encryptedFlag: UInt32 = 0x8000_0000
}

extension UnsafeMutableRawPointer {
    /// The big-endian 32-bit word at `offset`.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit word at `offset`.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
