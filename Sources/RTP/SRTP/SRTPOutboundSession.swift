/// Protects the RTP and RTCP packets we send, in place, under one master key (RFC 3711).
///
/// The session serves every SSRC we send from; libsrtp keeps one crypto context per SSRC
/// and derives its session keys from the master key when it first sees that SSRC.
///
/// ## One thread at a time
/// libsrtp has no locking and every protect changes the session's state. The session is
/// therefore `~Copyable` and its transforms are `mutating`: the value has exactly one owner, and
/// Swift's exclusivity rules (checked at compile time, and at run time for class properties)
/// forbid two overlapping calls. It is `Sendable` so that its owner can hand it over whole to
/// another thread (for example, create it on the control plane and move it into the send
/// pipeline); it can never be shared.
///
/// ## Failures
/// A failed protect throws an ``SRTPError``, is counted in ``statistics`` and leaves the
/// session usable.
public struct SRTPOutboundSession: ~Copyable, @unchecked Sendable {
    private let context: SRTPContext
    /// Packets protected and failures, since the session was created.
    public private(set) var statistics = SRTPStatistics()

    /// Creates a session that protects with `key`.
    ///
    /// The session keeps no copy of the master key; libsrtp keeps what it derives from it and
    /// wipes that when the session ends. `srtcpTagLength` chooses the SRTCP tag under a `_32`
    /// suite (default: the RFC's 80 bits); a `masterKeyIdentifier` (SDES `|MKI:length`) is
    /// written into every packet before the tag.
    /// - Throws: ``SRTPError/sessionCreationFailed(_:)`` if libsrtp refuses the key.
    public init(
        key: SRTPMasterKey, srtcpTagLength: SRTCPTagLength = .rfc, masterKeyIdentifier: SDESMasterKeyIdentifier? = nil
    ) throws(SRTPError) {
        context = try SRTPContext(
            key: key, direction: .outbound, srtcpTagLength: srtcpTagLength, masterKeyIdentifier: masterKeyIdentifier
        )
    }

    /// The suite of the key the session protects with.
    public var suite: SRTPCryptoSuite { context.suite }

    /// Protects the RTP packet in the first `length` octets of `buffer`, in place, and returns
    /// the length of the SRTP packet: `length` plus ``SRTPCryptoSuite/rtpOverhead``.
    ///
    /// - Parameters:
    ///   - buffer: The packet, followed by room for the authentication tag.
    ///   - length: The length of the RTP packet at the start of `buffer`.
    /// - Throws: ``SRTPError/bufferTooSmall(_:required:available:)`` when `buffer` has no room
    ///   for the tag, ``SRTPError/malformedPacket(_:)`` for a header libsrtp cannot read,
    ///   ``SRTPError/replayed(_:)`` when the sequence number was protected before.
    public mutating func protectRTP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.protectRTP, buffer: buffer, length: length, counting: &statistics)
    }

    /// Protects the RTCP compound packet in the first `length` octets of `buffer`, in place,
    /// and returns the length of the SRTCP packet: `length` plus ``SRTPCryptoSuite/rtcpOverhead``
    /// (the tag and the E flag with the SRTCP index).
    ///
    /// - Throws: as ``protectRTP(in:length:)``.
    public mutating func protectRTCP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.protectRTCP, buffer: buffer, length: length, counting: &statistics)
    }
}
