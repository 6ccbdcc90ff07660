/// How the jitter buffer chooses its playout delay.
public enum DelayPolicy: Sendable, Equatable {
    /// Adapts the delay to the measured arrival jitter (the default).
    case adaptive
    /// Plays every talkspurt at a fixed delay above the fastest packet, never time-stretching:
    /// the classic fixed buffer, kept as a baseline for the playout simulator.
    case fixed(milliseconds: Double)
}

/// The settings of a ``JitterBuffer``; everything is allocated from them at creation. Values
/// out of range are limited (delays to 0…10 s, frames to 10…1000 ms), not refused.
public struct JitterBufferConfiguration: Sendable, Equatable {
    /// The most packets held at once; a packet arriving when the store is full evicts the
    /// earliest one.
    public var packetCapacity = 128
    /// The largest payload accepted, in bytes; larger packets are discarded.
    public var maximumPayloadBytes = 1500
    /// The longest frame a payload may decode to, in milliseconds.
    public var maximumFrameMilliseconds = 120
    /// The delay policy.
    public var delayPolicy = DelayPolicy.adaptive
    /// The lowest target delay while the first 25 packets arrive, in milliseconds: the first
    /// words play 30 ms (and the settling point, 3 ms) after the fastest packet. While the
    /// network is still being learnt, a gap with nothing behind it below the target is
    /// concealed in place, so the delay grows as the network shows it must and the late
    /// packet still plays; once the first packets have shown the network, all of the start
    /// above what it needs goes at the next pause. (A 25 ms start made bursty loss with
    /// jitter conceal more than a fixed buffer: the first packets came late. Without the
    /// in-place growth the start lost 2 % of a recorded trace's packets as late, and without
    /// the early shrink a clean call stayed 18 ms above the fastest transit.)
    public var initialDelayMilliseconds = 30.0
    /// The lowest target delay, in milliseconds above the fastest packet.
    public var minimumDelayMilliseconds = 0.0
    /// The highest target delay, in milliseconds above the fastest packet.
    public var maximumDelayMilliseconds = 1000.0
    /// How the target delay is chosen. With a value (the default, 60 ms), the target is the
    /// delay that maximises the E-model's conversational rating: the delay impairment Id of
    /// G.107 at this much mouth-to-ear delay outside the buffer (the network's fastest transit,
    /// packetisation, codec and device) plus the buffer's delay, against the effective
    /// equipment impairment of the loss a listener would have at that delay: the network's
    /// recent loss and the packets the delay would make late (Ie,eff is concave, so late
    /// packets cost less on a lossy network), priced with a robustness Bpl of 80, what speech
    /// heard through this buffer showed (G.113 gives 25.1 for G.711 with concealment). Below
    /// about 120 ms delay is nearly free. With `nil`, the target holds ``delayQuantile``.
    public var conversationalBaseDelayMilliseconds: Double? = 60
    /// The fraction of packets the target delay should let arrive in time (0.95–0.999), when
    /// ``conversationalBaseDelayMilliseconds`` is `nil`.
    public var delayQuantile = 0.995
    /// How much each new relative-delay sample keeps of the old histogram (closer to 1 is a
    /// longer memory; 0.9995 remembers about 2000 packets, 40 s of 20 ms packets). Path
    /// stalls do not need a short memory: they are recorded as one sample each.
    public var histogramForgetFactor = 0.9995
    /// How fast the target delay may fall, in milliseconds per second of arrivals, once the
    /// first 250 packets have shown the network (it does not fall before); it rises at once.
    /// The playout delay itself moves in the pauses of the speech.
    public var targetDecayMillisecondsPerSecond = 10.0
    /// The payload type of RFC 3389 comfort-noise packets, played as comfort noise.
    public var comfortNoisePayloadType: UInt8? = 13
    /// The RFC 4733 telephone-event formats received beside the audio (none by default). Their
    /// packets are given to the buffer like audio: a sender sends a digit's events in place of
    /// its audio, and the buffer plays the digit's tone there instead of concealing a gap.
    public var telephoneEvents: [TelephoneEventFormat] = []
    /// How long concealment plays at full level before it starts fading, in milliseconds.
    public var concealmentFadeStartMilliseconds = 40.0
    /// How long concealment takes to fade into comfort noise, in milliseconds.
    public var concealmentFadeMilliseconds = 80.0

    /// The default settings.
    public init() {}
}
