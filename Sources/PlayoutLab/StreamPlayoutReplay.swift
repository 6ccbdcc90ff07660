import Jitter
import Codecs
import RTP

/// Replays one received RTP stream through a `JitterBuffer` as its packets come, in fixed
/// memory, and scores what was played: what a listener behind the buffer would have heard.
///
/// Feed each packet with its arrival time, in arrival order
/// (``receive(sequenceNumber:timestamp:marker:payloadType:payload:arrivalMilliseconds:listener:)``,
/// ``receiveTelephoneEvent(sequenceNumber:timestamp:marker:payloadType:payload:arrivalMilliseconds:listener:)``
/// for an RFC 4733 event of a configured format, or ``skip(sequenceNumber:arrivalMilliseconds:listener:)``
/// for any other packet of the stream); the replay
/// first pulls every 10 ms up to that time, as an audio thread would. ``finish(listener:)`` pulls for half a second after the last packet. The codec's
/// payloads are decoded by the real decoder when there is one; without one (a codec the
/// project cannot decode) packets play as silence of their duration, so the delay and loss
/// figures still exist.
///
/// The score follows ``PlayoutScore`` (the same per-pull rules, `PlayoutTally`), with what a
/// capture can tell: the send time of a sample is its RTP time on the fastest packet's
/// schedule (the smallest arrival − RTP time so far, started afresh when the timestamps jump
/// as far as the buffer's own stream restart), so playout delays are measured from a packet's
/// fastest possible arrival; lost packets are inferred from sequence gaps.
/// Delays are kept in 1 ms bins from −100 ms to 3.9 s (mean exact, percentiles to the bin's
/// middle). Stall recovery and pull timing are not measured (left empty and 0).
///
/// Memory is fixed per stream (the buffer's store, with one spare slot each payload is written
/// into, one pull of scratch, the delay bins, a window of 1024 pulls waiting to be scored);
/// nothing grows with its length, and nothing is allocated per packet or pull.
/// ``finish(listener:)`` releases it all, keeping only the figures.
public final class StreamPlayoutReplay {
    /// The PCM the listener hears: the codec's output format, or mono at the clock rate
    /// without a codec.
    public let format: AudioFormat
    /// Whether packets are decoded by the real codec (else they play as silence).
    public let decodesAudio: Bool

    /// Silence longer than this between two packets is shortened to it (after the buffer has
    /// drained), so that a capture with a long pause or a broken clock cannot make the replay
    /// pull for hours.
    public static let longestReplayedSilenceMilliseconds = 60_000.0
    /// How long the replay pulls after the last packet.
    public static let drainMilliseconds = 500.0
    /// The largest codec payload replayed, in bytes; a larger one is dropped (not played).
    public static let maximumPayloadBytes = 1500
    static let pullMilliseconds = 10.0
    static let pendingPullCapacity = 1024

    /// The replay until ``finish(listener:)``, then `nil` (its storage released): exactly one
    /// of `state` and `final` is set.
    private var state: ReplayState?
    /// The figures at ``finish(listener:)``.
    private var final: (score: PlayoutScore, toneSamples: Int)?
    /// Whether ``finish(listener:)`` ran: later packets are ignored.
    public var isFinished: Bool { final != nil }

    /// A replay of a stream of `clockRate` Hz through `codec` (`nil`: silence of each packet's
    /// duration), with the buffer's settings (its payload limit is set here). With
    /// `deliversAudio` false, nobody wants the PCM: each pull leaves its 10 ms in the buffer's
    /// queue instead of copying it out, and the listeners are never called (the figures are
    /// the same).
    public init(
        codec: (any AudioDecoder)?, clockRate: Int, configuration: JitterBufferConfiguration = JitterBufferConfiguration(),
        deliversAudio: Bool = true
    ) {
        let state = ReplayState(codec: codec, clockRate: clockRate, configuration: configuration, deliversAudio: deliversAudio)
        format = state.format
        decodesAudio = state.decodesAudio
        self.state = consume state
    }

    /// Takes the stream's next packet, which arrived at `arrivalMilliseconds`: first pulls every
    /// 10 ms before that time, handing each pull's PCM to `listener`, then inserts the packet.
    /// `payload` is the codec's bytes, `nil` when the capture could not read them (the packet
    /// then plays as silence).
    public func receive(
        sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, payload: UnsafeRawBufferPointer?,
        arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void
    ) {
        state?.receive(
            sequenceNumber: sequenceNumber, timestamp: timestamp, marker: marker, payloadType: payloadType, payload: payload,
            arrivalMilliseconds: arrivalMilliseconds, listener: listener)
    }

    /// Takes a packet of the stream that carries nothing for the buffer (another payload type,
    /// or a telephone event whose payload the capture could not read): its sequence number is
    /// not a gap. Pulls up to its arrival like a media packet.
    public func skip(sequenceNumber: UInt16, arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        state?.skip(sequenceNumber: sequenceNumber, arrivalMilliseconds: arrivalMilliseconds, listener: listener)
    }

    /// Takes an RFC 4733 telephone-event packet of the stream on `payloadType`, one of the
    /// configuration's ``JitterBufferConfiguration/telephoneEvents``, as the live receive path
    /// does: pulls up to its arrival, then gives it to the buffer as it came (`payload`: the
    /// event's bytes), which plays the digit's tone over the event's media time where no audio
    /// came. Its sequence number is not a gap, and it is not a media packet of the score (the
    /// tone's pulls count as played, not concealed; ``toneSamples``).
    public func receiveTelephoneEvent(
        sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, payload: UnsafeRawBufferPointer,
        arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void
    ) {
        state?.receiveTelephoneEvent(
            sequenceNumber: sequenceNumber, timestamp: timestamp, marker: marker, payloadType: payloadType, payload: payload,
            arrivalMilliseconds: arrivalMilliseconds, listener: listener)
    }

    /// The samples (per channel, at ``format``'s rate) of telephone-event tones the buffer
    /// played so far: media, not concealment.
    public var toneSamples: Int { state?.toneSamples ?? final!.toneSamples }

    /// Pulls for ``drainMilliseconds`` after the last packet, settles the score and releases
    /// the replay's storage. Idempotent.
    public func finish(listener: (UnsafeBufferPointer<Int16>) -> Void) {
        guard final == nil else { return }
        state?.finish(listener: listener)
        final = (score, toneSamples)
        state = nil
    }

    /// What was played so far (complete after ``finish(listener:)``).
    public var score: PlayoutScore { state?.score ?? final!.score }
}

/// A pull waiting for the arrivals to tell whether media was due at its playout point.
struct PendingPull {
    var timestamp: UInt64
    var decodedAudio: Bool
}

/// A first-in first-out queue of pulls in fixed storage.
struct PendingPulls {
    private var storage: [PendingPull]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = [PendingPull](repeating: PendingPull(timestamp: 0, decodedAudio: false), count: max(capacity, 1))
    }

    var isFull: Bool { count == storage.count }
    var first: PendingPull? { count == 0 ? nil : storage[head] }

    mutating func append(_ pull: PendingPull) {
        guard !isFull else { return }
        let slot = head + count
        storage[slot < storage.count ? slot : slot - storage.count] = pull
        count += 1
    }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
    }
}

extension PlayoutScore {
    /// A score from the figures of a streaming replay, without stall recovery or pull timing.
    init(
        meanDelayMilliseconds: Double, p50DelayMilliseconds: Double, p95DelayMilliseconds: Double,
        p99DelayMilliseconds: Double, networkLossPercent: Double, lateLossPercent: Double, effectiveLossPercent: Double,
        concealmentPercent: Double, concealmentEvents: Int, interruptions: Int, timeStretchPercent: Double
    ) {
        self.meanDelayMilliseconds = meanDelayMilliseconds
        self.p50DelayMilliseconds = p50DelayMilliseconds
        self.p95DelayMilliseconds = p95DelayMilliseconds
        self.p99DelayMilliseconds = p99DelayMilliseconds
        self.networkLossPercent = networkLossPercent
        self.lateLossPercent = lateLossPercent
        self.effectiveLossPercent = effectiveLossPercent
        self.concealmentPercent = concealmentPercent
        self.concealmentEvents = concealmentEvents
        self.interruptions = interruptions
        self.timeStretchPercent = timeStretchPercent
        recoveryMilliseconds = []
        medianPullMicroseconds = 0
        p99PullMicroseconds = 0
    }
}
