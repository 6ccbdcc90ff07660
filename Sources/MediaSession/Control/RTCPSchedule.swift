import RTP

/// When the next RTCP report is due, by RFC 3550 §6.2 for a two-party call: 5 % of the
/// session bandwidth, the configured minimum, randomised; and two reports out of turn, so a
/// peer that reports rarely (baresip every 5 s) has an SR of ours to answer from the start:
/// one at the call's start (after its first packet, so an SR), one as soon as the peer is
/// first heard (carrying a block about it).
struct RTCPSchedule {
    private let minimumInterval: Double
    /// RTCP bandwidth in bytes per second.
    private let rtcpBandwidth: Double
    /// A typical compound (SR + one block + SDES + SRTCP trailer), in bytes with UDP/IP headers.
    private static let averagePacketBytes = 120.0

    /// When the next report is due.
    private(set) var next: MediaTime
    /// Whether the peer has not been heard yet (its first packet pulls a report in).
    private(set) var awaitsPeer = true

    init(configuration: MediaSessionConfiguration, media: NegotiatedAudio, now: MediaTime) {
        minimumInterval = configuration.rtcpMinimumIntervalSeconds
        // Session bandwidth: the payload bit rate (64 kbit/s G.711, at most 64 kbit/s Opus at
        // VoIP rates) plus 40 bytes of IP/UDP/RTP headers per packet.
        let packetsPerSecond = 1000 / Double(max(media.packetTimeMilliseconds, 1))
        let sessionBytesPerSecond = 8000 + 40 * packetsPerSecond
        rtcpBandwidth = 0.05 * sessionBytesPerSecond
        next = now + MediaTime(seconds: Double(media.packetTimeMilliseconds) / 1000)
    }

    /// The peer was heard at `now` for the first time: the next report is due at once.
    mutating func peerHeard(now: MediaTime) {
        awaitsPeer = false
        if next > now { next = now }
    }

    /// Schedules the report after the one sent at `now`.
    mutating func reportSent(now: MediaTime, weSent: Bool) {
        next = now + MediaTime(seconds: interval(weSent: weSent))
    }

    private func interval(weSent: Bool) -> Double {
        RTCPTransmissionInterval(
            members: 2, senders: weSent ? 2 : 1, rtcpBandwidth: rtcpBandwidth, weSent: weSent,
            averagePacketSize: Self.averagePacketBytes, initial: false, minimumInterval: minimumInterval
        ).seconds(random: Double.random(in: 0..<1))
    }
}
