/// Running counters of a ``JitterBuffer``, in the spirit of WebRTC's NetEq statistics.
/// Sample counts are per channel at the decoder's output rate.
public struct JitterBufferStatistics: Sendable, Equatable {
    /// Packets given to `insert`, whatever became of them.
    public var packetsReceived = 0
    /// Packets dropped for another reason than lateness or duplication: oversized, undecodable,
    /// evicted from a full store, or overtaken by the playout.
    public var packetsDiscarded = 0
    /// Packets that arrived after their playout time.
    public var latePackets = 0
    /// Packets received more than once.
    public var duplicatePackets = 0
    /// Samples made up by concealment (FEC recoveries included).
    public var concealedSamples = 0
    /// Samples recovered from the forward error correction of the next packet.
    public var recoveredSamples = 0
    /// Times concealment started after decoded audio.
    public var concealmentEvents = 0
    /// Samples of telephone-event tones played where the sender sent RFC 4733 events in place
    /// of audio (``JitterBufferConfiguration/telephoneEvents``): media, not concealment.
    public var toneSamples = 0
    /// Samples of comfort noise played.
    public var comfortNoiseSamples = 0
    /// Samples added by time-stretching (decelerate).
    public var insertedSamples = 0
    /// Samples removed by time-stretching (accelerate).
    public var removedSamples = 0
    /// Samples played in total.
    public var playedSamples = 0
    /// Concealment events of 150 ms or more that ended with the stream resuming (not a new
    /// talkspurt).
    public var interruptions = 0
    /// The total length of those interruptions in milliseconds.
    public var interruptionMilliseconds = 0.0
    /// Path stalls recognised by the delay estimator.
    public var delaySpikes = 0
    /// Times the buffer restarted on a new stream (SSRC change or timestamp jump).
    public var streamResets = 0
    /// The current playout delay above the fastest recent packet, in milliseconds (filtered).
    public var currentDelayMilliseconds = 0.0
    /// The playout delay the buffer steers towards, in milliseconds above the fastest recent packet.
    public var targetDelayMilliseconds = 0.0
    /// How much higher than its target the buffer holds its delay because clock drift drains
    /// it (what it drains between two pauses of the speech, see the README's device clock
    /// section), in milliseconds; zero without drift and in a fixed buffer.
    public var driftAnticipationMilliseconds = 0.0

    /// All counters at zero.
    public init() {}
}
