/// Something that happened during a call, published on ``MediaSession/events``.
public enum MediaSessionEvent: Sendable, Equatable {
    /// The peer pressed a key (RFC 4733): reported once per event, when it ends.
    case dtmfReceived(Character)
    /// The peer's RTP now comes from another synchronisation source (`from` is nil for the first).
    case remoteSSRCChanged(from: UInt32?, to: UInt32)
    /// Symmetric RTP: media is now sent to where the peer's authenticated packets come from.
    case remoteAddressLatched(SocketAddress)
    /// Received packets failed SRTP authentication (reported at most once a second, with the
    /// count so far). Replays are counted in ``MediaSessionStatistics/replaysDropped`` without
    /// this alarm: peers repeat packets legitimately.
    case srtpFailure(count: UInt64)
    /// The peer sent an RTCP BYE.
    case remoteGoodbye(reason: String?)
    /// No RTP arrived for `seconds` while the peer should be sending.
    case noMedia(seconds: Double)
    /// Media flows again after a ``noMedia(seconds:)`` event.
    case mediaResumed
    /// The wall clock stepped by `milliseconds` (positive forward). The call runs on the
    /// monotonic clock and maps the kernel's (wall-clock) receive timestamps across the step,
    /// so nothing audible changes; this is a note for the logs.
    case wallClockStepped(milliseconds: Double)
    /// The capture overran: the audio thread stopped longer than the capture buffer holds, and
    /// `lostMilliseconds` of audio were lost. What is sent after the gap goes out that much later
    /// in RTP time (a pause to the peer, not a step back of the sender's clock).
    case captureOverrun(lostMilliseconds: Double)
    /// An audio device failed; the call goes on without it until ``MediaSession/switchAudio(to:)``.
    case deviceError(String)
}
