/// Counters of one session, for tests, logs and the quality monitor.
public struct MediaSessionStatistics: Sendable, Equatable {
    /// RTP packets sent (audio, comfort noise and DTMF).
    public var rtpPacketsSent = 0
    /// RTP payload bytes sent.
    public var rtpPayloadBytesSent = 0
    /// RTCP compound packets sent.
    public var rtcpPacketsSent = 0
    /// RTP packets accepted from the peer (audio, comfort noise and DTMF).
    public var rtpPacketsReceived = 0
    /// RTCP compound packets accepted from the peer.
    public var rtcpPacketsReceived = 0
    /// Datagrams that were neither RTP nor RTCP, or did not parse as such.
    public var malformedDropped = 0
    /// STUN packets (ICE connectivity checks, keepalives) and plaintext RTCP APP `PING`/`PONG`
    /// keepalives on an SRTP call (baresip): ignored, no alarm.
    public var keepalivesIgnored = 0
    /// Datagrams refused by SRTP: authentication failures.
    public var authenticationFailures = 0
    /// Datagrams refused by SRTP: replays and packets too old for the replay window.
    public var replaysDropped = 0
    /// RTP packets from a synchronisation source other than the peer's (not yet confirmed).
    public var foreignSSRCDropped = 0
    /// RTP packets from an address other than the latched peer's.
    public var foreignAddressDropped = 0
    /// RTP packets seen before (same sequence number) and dropped.
    public var duplicatesDropped = 0
    /// RTP packets with a payload type not negotiated.
    public var unknownPayloadTypeDropped = 0
    /// Packets the jitter buffer's inbox could not take.
    public var jitterInboxDropped = 0
    /// Send attempts dropped because the socket buffer was full or the network refused.
    public var sendFailures = 0
    /// Audio ticks that began more than one 10 ms period later than due after the tick before
    /// (two periods apart for a softphone's 10 ms ticks; 30 ms for the 20 ms ticks of a
    /// ``MediaRuntime``'s default): the thread did not get the CPU in time to serve a period,
    /// which a sound card plays as an underrun. Stays zero while the machine keeps up with the call.
    public var lateAudioTicks = 0
    /// Underruns of the playback endpoint, for one with a clock of its own (a sound card):
    /// it ran out of samples. Stays zero while the call keeps its headroom.
    public var playbackUnderruns = 0
    /// Of ``playbackUnderruns``, those that followed a wake-up of the audio thread later than
    /// the queue its schedule left: the machine did not run the call in time (the headroom then
    /// grows to cover such lateness). The others happened on schedule: the pacing failed.
    public var playbackUnderrunsAfterLateWakeUps = 0
    /// What the call keeps queued in the playback device before each write, in milliseconds:
    /// 20 ms, more while the machine delays the audio thread (up to 50 ms); nil for an endpoint
    /// without a clock of its own.
    public var playbackHeadroomMilliseconds: Double?
    /// How far the playback device's sample clock runs from its nominal rate against the
    /// monotonic clock, in parts per million (positive: faster), once measured over a second;
    /// nil for an endpoint without a clock of its own. The jitter buffer absorbs the drift.
    public var playbackClockSkewPartsPerMillion: Double?
    /// Overruns of the capture endpoint (``AudioEndpoint/captureLoss()``): the audio thread
    /// stopped longer than the capture buffer holds. Each also raised
    /// ``MediaSessionEvent/captureOverrun(lostMilliseconds:)``.
    public var captureOverruns = 0
    /// Capture frames, at the capture rate, those overruns lost. The RTP timestamps of what is
    /// sent after each loss skip its media time (rounded to whole frames), with no gap in the
    /// sequence numbers: the peer hears a pause where the audio was lost, and its delay stays.
    public var captureFramesLost = 0
    /// 10 ms periods the audio thread skipped after it stalled longer than its timer catches
    /// up (40 ms, a runtime's ``MediaRuntimeConfiguration/maximumTickLagMilliseconds``), for an endpoint without a clock of its own (``AudioEndpoint/playbackPosition()``
    /// nil: a server leg on a ``MediaRuntime``, whose shared thread stalled, or a memory endpoint):
    /// media time the call lived through but never captured. Like ``captureFramesLost``, the RTP
    /// timestamps sent after skip it, with no gap in the sequence numbers, so the peer's delay stays;
    /// an endpoint with a clock of its own reports such a stall as capture loss instead. Counted
    /// apart from the overruns: the host stalled, not the capture device, and no event is raised
    /// (a stall of a runtime's thread would raise one in every call on it).
    public var audioPeriodsSkipped = 0
    /// Steps of the wall clock seen under the call (NTP, an administrator, a leap second, a
    /// resume from suspend): each also raised ``MediaSessionEvent/wallClockStepped(milliseconds:)``.
    /// The call is timed on the monotonic clock, so a step changes nothing it plays.
    public var wallClockSteps = 0
    /// The last round-trip time from RTCP, in milliseconds, if measured.
    public var roundTripMilliseconds: Double?
    /// The interarrival jitter of the peer's stream (RFC 3550), in milliseconds.
    public var jitterMilliseconds = 0.0
    /// The peer's packets lost (expected − received).
    public var packetsLost: Int64 = 0
    /// The packet loss, in percent, our encoder sizes its in-band FEC for now (Opus sent with
    /// `useinbandfec=1`; it follows the peer's reports, see
    /// ``MediaSessionConfiguration/lossAdaptation``); nil when the codec sends no FEC.
    public var forwardErrorCorrectionLossPercent: Int?

    /// All counters at zero.
    public init() {}

    /// Every datagram that was refused or ignored, whatever the reason (keepalives included).
    public var totalDropped: Int {
        keepalivesIgnored + malformedDropped + authenticationFailures + replaysDropped + foreignSSRCDropped
            + foreignAddressDropped + duplicatesDropped + unknownPayloadTypeDropped
    }
}
