/// Verifies and decrypts the SRTP and SRTCP packets we receive, in place, under one master
/// key (RFC 3711), refusing forgeries and replays.
///
/// The session accepts every SSRC the peer sends from; libsrtp creates the crypto context of
/// an SSRC only after that SSRC's first packet has authenticated, so forged packets cost no
/// memory.
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
    /// The replay window libsrtp uses unless told otherwise: 128 packets.
    public static let defaultReplayWindowSize = SRTPContext.defaultReplayWindowSize

    private let context: SRTPContext
    /// Packets unprotected and failures, since the session was created.
    public private(set) var statistics = SRTPStatistics()

    /// Creates a session that unprotects with `key`.
    ///
    /// The session keeps no copy of the master key; libsrtp keeps what it derives from it and
    /// wipes that when the session ends.
    ///
    /// - Parameters:
    ///   - key: The peer's master key and salt.
    ///   - replayWindowSize: How many packets back a late packet is still accepted, 64 to 32 768.
    ///   - srtcpTagLength: The SRTCP tag expected under a `_32` suite (default: the RFC's 80 bits).
    ///   - masterKeyIdentifier: The MKI the peer's packets carry (SDES `|MKI:length`), if any.
    /// - Throws: ``SRTPError/invalidReplayWindowSize(_:)``, or
    ///   ``SRTPError/sessionCreationFailed(_:)`` if libsrtp refuses the key.
    public init(
        key: SRTPMasterKey, replayWindowSize: Int = defaultReplayWindowSize, srtcpTagLength: SRTCPTagLength = .rfc,
        masterKeyIdentifier: SDESMasterKeyIdentifier? = nil
    ) throws(SRTPError) {
        context = try SRTPContext(
            key: key, direction: .inbound, replayWindowSize: replayWindowSize, srtcpTagLength: srtcpTagLength,
            masterKeyIdentifier: masterKeyIdentifier
        )
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
