internal import CSRTP

/// The owner of one libsrtp session (`srtp_t`): created once, freed exactly once in `deinit`.
///
/// libsrtp keeps the session keys it derives from the master key (and, for AES-GCM, the
/// master salt) and `srtp_dealloc` wipes them. The context itself keeps no key material.
struct SRTPContext: ~Copyable {
    /// Which SSRCs the session serves: any sender of ours, or any peer.
    enum Direction {
        case outbound
        case inbound
    }

    /// libsrtp's own default replay window, in packets. On an outbound session the window
    /// only catches a sequence number protected twice.
    static let defaultReplayWindowSize = 128

    /// The suite the session was created for.
    let suite: SRTPCryptoSuite
    /// The SRTCP tag the session uses under a `_32` suite.
    let srtcpTagLength: SRTCPTagLength
    /// The length of the MKI every packet carries (RFC 3711 §3.1), 0 for none.
    let masterKeyIdentifierLength: Int
    private let handle: OpaquePointer

    /// Creates a session for every SSRC in `direction` under `key`.
    init(
        key: SRTPMasterKey, direction: Direction, replayWindowSize: Int = defaultReplayWindowSize,
        srtcpTagLength: SRTCPTagLength = .rfc, masterKeyIdentifier: SDESMasterKeyIdentifier? = nil
    ) throws(SRTPError) {
        try SRTPLibrary.ensureInitialized()
        guard (64...0x8000).contains(replayWindowSize) else {
            throw .invalidReplayWindowSize(replayWindowSize)
        }
        var policy = srtp_policy_t()
        key.suite.configure(rtp: &policy.rtp, rtcp: &policy.rtcp, srtcpTag: srtcpTagLength)
        policy.ssrc.type = direction == .outbound ? ssrc_any_outbound : ssrc_any_inbound
        policy.window_size = UInt(replayWindowSize)
        policy.allow_repeat_tx = 0
        var session: srtp_t?
        // srtp_create reads the key (and copies the MKI) only while it derives the session keys.
        var identifier = masterKeyIdentifier?.octets ?? []
        let status = key.withUnsafeBytes { keyAndSalt in
            let keyPointer = UnsafeMutablePointer(mutating: keyAndSalt.baseAddress?.assumingMemoryBound(to: UInt8.self))
            guard !identifier.isEmpty else {
                policy.key = keyPointer
                defer { policy.key = nil }
                return srtp_create(&session, &policy)
            }
            return identifier.withUnsafeMutableBufferPointer { mki in
                var master = srtp_master_key_t(key: keyPointer, mki_id: mki.baseAddress, mki_size: UInt32(mki.count))
                return withUnsafeMutablePointer(to: &master) { masterPointer in
                    var keys: [UnsafeMutablePointer<srtp_master_key_t>?] = [masterPointer]
                    return keys.withUnsafeMutableBufferPointer { list in
                        policy.keys = list.baseAddress
                        policy.num_master_keys = 1
                        defer { policy.keys = nil }
                        return srtp_create(&session, &policy)
                    }
                }
            }
        }
        guard status == srtp_err_status_ok, let session else {
            throw .sessionCreationFailed(SRTPLibraryStatus(status))
        }
        suite = key.suite
        self.srtcpTagLength = srtcpTagLength
        masterKeyIdentifierLength = identifier.count
        handle = session
    }

    deinit {
        srtp_dealloc(handle)
    }

    /// Runs one libsrtp transform in place on the first `length` octets of `buffer`, and
    /// returns the new length; counts the outcome in `statistics`.
    func transform(
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

    /// Runs one libsrtp transform in place on the first `length` octets of `buffer`, checking
    /// first that the buffer has room for what the transform adds, and returns the new length.
    private func transform(
        _ operation: SRTPOperation, buffer: UnsafeMutableRawBufferPointer, length: Int
    ) throws(SRTPError) -> Int {
        let growth = switch operation {
        case .protectRTP: suite.rtpOverhead + masterKeyIdentifierLength
        case .protectRTCP: suite.rtcpTagLength(srtcpTagLength) + 4 + masterKeyIdentifierLength
        case .unprotectRTP, .unprotectRTCP: 0
        }
        // libsrtp counts in `int`: the packet and what protect adds must fit.
        guard length >= 0, length <= buffer.count, length <= Int(Int32.max) - growth else {
            throw .invalidLength(operation, length: length, bufferCount: buffer.count)
        }
        guard buffer.count - length >= growth else {
            throw .bufferTooSmall(operation, required: length + growth, available: buffer.count)
        }
        guard length > 0, let start = buffer.baseAddress else { throw .malformedPacket(operation) }
        var newLength = Int32(length)
        let status = if masterKeyIdentifierLength == 0 {
            switch operation {
            case .protectRTP: srtp_protect(handle, start, &newLength)
            case .protectRTCP: srtp_protect_rtcp(handle, start, &newLength)
            case .unprotectRTP: srtp_unprotect(handle, start, &newLength)
            case .unprotectRTCP: srtp_unprotect_rtcp(handle, start, &newLength)
            }
        } else {
            switch operation {
            case .protectRTP: srtp_protect_mki(handle, start, &newLength, 1, 0)
            case .protectRTCP: srtp_protect_rtcp_mki(handle, start, &newLength, 1, 0)
            case .unprotectRTP: srtp_unprotect_mki(handle, start, &newLength, 1)
            case .unprotectRTCP: srtp_unprotect_rtcp_mki(handle, start, &newLength, 1)
            }
        }
        guard status == srtp_err_status_ok else {
            throw SRTPLibrary.error(for: status, in: operation)
        }
        return Int(newLength)
    }
}
