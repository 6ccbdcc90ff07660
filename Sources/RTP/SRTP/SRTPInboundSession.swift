/// Verifies and decrypts the SRTP and SRTCP packets we receive, in place, under one master
/// key (RFC 3711), refusing forgeries and replays.
///
/// The session accepts every SSRC the peer sends from (up to
/// ``SRTPSessionOptions/maximumStreamCount`` at a time); it adds an SSRC's state only after that
/// SSRC's first packet has authenticated, so forged packets cost nothing. The transform is the
/// library's own, on OpenSSL's libcrypto: nothing is allocated per packet.
///
/// ## One thread at a time
/// As for ``SRTPOutboundSession``: the session is `~Copyable` and its transforms are
/// `mutating`, so it has one owner and no two calls can overlap; `Sendable` lets that owner
/// move it to another thread.
///
/// ## Failures
/// A refused packet throws an ``SRTPError`` that says why (``SRTPError/authenticationFailed(_:)``,
/// ``SRTPError/replayed(_:)``, ``SRTPError/replayTooOld(_:)``, …), is counted in
/// ``statistics`` and leaves the session usable; the caller drops the packet.
public struct SRTPInboundSession: ~Copyable, @unchecked Sendable {
    /// The replay window used unless told otherwise: 128 packets.
    public static let defaultReplayWindowSize = SRTPSessionOptions.defaultReplayWindowSize

    private var context: SRTPContext
    /// Packets unprotected and failures, since the session was created.
    public private(set) var statistics = SRTPStatistics()

    /// Creates a session that unprotects with `key`.
    ///
    /// The session keeps no copy of the master key, only the session keys derived from it,
    /// which it wipes when it ends.
    ///
    /// - Parameters:
    ///   - key: The peer's master key and salt.
    ///   - replayWindowSize: How many packets back a late packet is still accepted, 64 to 32 768.
    /// - Throws: ``SRTPError/invalidReplayWindowSize(_:)``.
    public init(key: SRTPMasterKey, replayWindowSize: Int = defaultReplayWindowSize) throws(SRTPError) {
        var options = SRTPSessionOptions()
        options.replayWindowSize = replayWindowSize
        try self.init(key: key, options: options)
    }

    /// Creates a session that unprotects with `key`, set up by `options` (replay window, MKI,
    /// SRTCP tag length, number of SSRCs).
    ///
    /// - Throws: the ``SRTPError`` that names an option out of range.
    public init(key: SRTPMasterKey, options: SRTPSessionOptions) throws(SRTPError) {
        context = try SRTPContext(key: key, direction: .inbound, options: options)
    }

    /// Sets the rollover counter (RFC 3711 §3.3.1) of `ssrc`'s next packets, for a stream
    /// joined after its sequence numbers wrapped (signalled out of band, or seen in a capture).
    ///
    /// As libsrtp 2.5's `srtp_set_stream_roc`: the next packets are indexed ROC ‖ SEQ; the first
    /// whose index is more than 2^15 ahead of the stream's highest moves the stream there,
    /// packets within 2^15 are checked against the replay window as usual, packets further
    /// behind are refused as too old. 0 sets nothing.
    public mutating func setRolloverCounter(_ rolloverCounter: UInt32, ssrc: UInt32) {
        context.setRolloverCounter(rolloverCounter, ssrc: ssrc)
    }

    /// Reports to `visit` the memory beyond this value that an SRTP packet's transform
    /// touches (replay state, cipher context, HMAC states), for a caller that warms it into the
    /// cache ahead of the packet; `visit` may only read it.
    package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        context.hotRegions(visit)
    }

    /// The suite of the key the session unprotects with.
    public var suite: SRTPCryptoSuite { context.suite }

    /// Verifies and decrypts the SRTP packet in the first `length` octets of `buffer`, in
    /// place, and returns the length of the RTP packet left at the start of `buffer`.
    ///
    /// - Throws: ``SRTPError/authenticationFailed(_:)`` for a tampered or foreign packet,
    ///   ``SRTPError/replayed(_:)`` or ``SRTPError/replayTooOld(_:)`` for a replay,
    ///   ``SRTPError/malformedPacket(_:)`` for one too short or with an unreadable header.
    public mutating func unprotectRTP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.unprotectRTP, buffer: buffer, length: length, counting: &statistics)
    }

    /// Verifies and decrypts the SRTCP packet in the first `length` octets of `buffer`, in
    /// place, and returns the length of the RTCP compound packet left at the start of `buffer`.
    ///
    /// - Throws: as ``unprotectRTP(in:length:)``.
    public mutating func unprotectRTCP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try context.transform(.unprotectRTCP, buffer: buffer, length: length, counting: &statistics)
    }
}
