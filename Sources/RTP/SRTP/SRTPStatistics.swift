/// What one SRTP session has done: packets that went through and failures by kind.
///
/// RTP and RTCP packets are counted together. An outbound session counts in
/// ``protectedPackets``, an inbound one in ``unprotectedPackets``.
public struct SRTPStatistics: Hashable, Sendable {
    /// Packets protected successfully.
    public var protectedPackets: UInt64 = 0
    /// Packets verified and decrypted successfully.
    public var unprotectedPackets: UInt64 = 0
    /// Packets refused because their tag did not verify.
    public var authenticationFailures: UInt64 = 0
    /// Packets refused as replays, whether inside the window or older than it.
    public var replays: UInt64 = 0
    /// Every other failure: malformed packets, unknown MKIs, small buffers, exhausted keys.
    public var otherFailures: UInt64 = 0

    /// All counters at zero.
    public init() {}

    mutating func record(_ error: SRTPError) {
        switch error {
        case .authenticationFailed: authenticationFailures &+= 1
        case .replayed, .replayTooOld: replays &+= 1
        default: otherFailures &+= 1
        }
    }
}
