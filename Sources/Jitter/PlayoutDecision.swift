/// What one ``JitterBuffer/pull(into:nowMilliseconds:)`` played.
public struct PlayoutDecision: Sendable, Equatable {
    /// The kind of audio produced.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// Decoded audio at its natural pace.
        case normal
        /// Decoded audio with a pitch period removed: the delay shrinks.
        case accelerate
        /// Decoded audio with a pitch period repeated: the delay grows.
        case decelerate
        /// Audio made up for a packet that is missing (codec concealment, or FEC from the next
        /// packet), fading into comfort noise on long gaps.
        case conceal
        /// Comfort noise: silence between talkspurts, before the first packet, or after a long
        /// gap has faded out.
        case comfortNoise
        /// The first decoded audio after concealment, cross-faded from the concealment.
        case merge
    }

    /// The kind of audio produced.
    public var kind: Kind
    /// The RTP timestamp (of the current stream) of the first sample played: the playout
    /// point on the media timeline. During comfort noise it is the silence's nominal position.
    public var rtpTimestamp: UInt32

    /// A decision.
    public init(kind: Kind, rtpTimestamp: UInt32) {
        self.kind = kind
        self.rtpTimestamp = rtpTimestamp
    }
}
