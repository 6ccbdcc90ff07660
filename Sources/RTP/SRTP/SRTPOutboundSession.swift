/// Protects the RTP and RTCP packets we send, in place, under one master key (RFC 3711).
///
/// The session serves every SSRC we send from (up to ``SRTPSessionOptions/maximumStreamCount``
/// at a time), keeping each one's rollover counter and SRTCP index. The transform is the
/// library's own, on OpenSSL's libcrypto: nothing is allocated per packet.
///
/// ## One thread at a time
/// The session has no locking and every protect changes its state. The session is
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
    private var context: SRTPContext
    /// Packets protected and failures, since the session was created.
    public private(set) var statistics = SRTPStatistics()

    /// Creates a session that protects with `key`.
    ///
    /// The session keeps no copy of the master key, only the session keys derived from it,
    /// which it wipes when it ends.
    public init(key: SRTPMasterKey) throws(SRTPError) {
        try self.init(key: key, options: SRTPSessionOptions())
    }

    /// Creates a session that protects with `key`, set up by `options` (MKI, SRTCP tag length,
    /// number of SSRCs, the window that catches a sequence number protected twice).
    ///
    /// - Throws: the ``SRTPError`` that names an option out of range.
    public init(key: SRTPMasterKey, options: SRTPSessionOptions) throws(SRTPError) {
        context = try SRTPContext(key: key, direction: .outbound, options: options)
    }

    /// Sets the rollover counter (RFC 3711 §3.3.1) of `ssrc`'s next packets, for example to
    /// continue a stream whose counter was signalled; the rules are those of
    /// ``SRTPInboundSession/setRolloverCounter(_:ssrc:)``.
    public mutating func setRolloverCounter(_ rolloverCounter: UInt32, ssrc: UInt32) {
        context.setRolloverCounter(rolloverCounter, ssrc: ssrc)
    }

    /// Reports to `visit` the memory beyond this value that an SRTP packet's transform
    /// touches (replay state, cipher context, HMAC states), for a caller that warms it into the
    /// cache ahead of the packet; `visit` may only read it.
    package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        context.hotRegions(visit)
    }

    /// The suite of the key the session protects with.
    public var suite: SRTPCryptoSuite { context.suite }

    /// Protects the RTP packet in the first `length` octets of `buffer`, in place, and returns
    /// the length of the SRTP packet: `length` plus ``SRTPCryptoSuite/rtpOverhead`` (and the
    /// MKI's length, if any).
    ///
    /// - Parameters:
    ///   - buffer: The packet, followed by room for the authentication tag.
    ///   - length: The length of the RTP packet at the start of `buffer`.
    /// - Throws: ``SRTPError/bufferTooSmall(_:required:available:)`` when `buffer` has no room
    ///   for the tag, ``SRTPError/malformedPacket(_:)`` for a header that runs past the packet,
    ///   ``SRTPError/replayed(_:)`` when the sequence number was protected before.
    public mutating func protectRTP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.protectRTP, buffer: buffer, length: length, counting: &statistics)
    }

    /// Protects the RTCP compound packet in the first `length` octets of `buffer`, in place,
    /// and returns the length of the SRTCP packet: `length` plus ``SRTPCryptoSuite/rtcpOverhead``
    /// (the tag and the E flag with the SRTCP index; less with a 32-bit SRTCP tag, more with
    /// an MKI).
    ///
    /// - Throws: as ``protectRTP(in:length:)``.
    public mutating func protectRTCP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.protectRTCP, buffer: buffer, length: length, counting: &statistics)
    }
}
