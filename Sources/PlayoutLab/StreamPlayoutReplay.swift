import Jitter
import Codecs
import RTP

/// Replays one received RTP stream through a `JitterBuffer` as its packets come, in fixed
/// memory, and scores what was played: what a listener behind the buffer would have heard.
///
/// Feed each packet with its arrival time, in arrival order
/// (``receive(sequenceNumber:timestamp:marker:payloadType:payload:arrivalMilliseconds:listener:)``,
/// or ``skip(sequenceNumber:arrivalMilliseconds:listener:)`` for a telephone event); the replay
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
/// Memory is fixed per stream (the buffer's store, one payload and one pull of scratch, the
/// delay bins, a window of 1024 pulls waiting to be scored); nothing grows with its length,
/// and nothing is allocated per packet or pull.
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

    private var buffer: JitterBuffer<TaggedPayloadDecoder>
    private let rtpClockRate: Int
    /// RTP ticks in one 10 ms pull.
    private let pullTicks: Double
    private let scratch: UnsafeMutableRawBufferPointer
    private let pcm: UnsafeMutableBufferPointer<Int16>
    private var sequences = SequenceUnwrapper()
    private var timestamps = TimestampUnwrapper()
    private var coverage: SentMediaCoverage
    private var seen = ReceivedWindow()
    private var started = false
    private var lowestSequence: UInt64 = 0
    private var skippedPackets = 0
    private var arrivedPackets = 0
    private var playedPackets = 0
    private var recoveredPackets = 0
    /// The smallest arrival − RTP time (milliseconds) of the stream so far.
    private var lowestOffset = Double.infinity
    private var nextPullMilliseconds = 0.0
    private var lastArrivalMilliseconds = -Double.infinity
    private var previousPull: (timestamp: UInt64, stretched: Bool)?
    private var delays = PlayoutDelayHistogram(lowestMilliseconds: -100, binCount: 4000)
    private var tally = PlayoutTally()
    private var pending: PendingPulls
    /// Whether ``finish(listener:)`` ran: later packets are ignored.
    public private(set) var isFinished = false

    /// A replay of a stream of `clockRate` Hz through `codec` (`nil`: silence of each packet's
    /// duration), with the buffer's settings (its payload limit is set here).
    public init(codec: (any AudioDecoder)?, clockRate: Int, configuration: JitterBufferConfiguration = JitterBufferConfiguration()) {
        let decoder = TaggedPayloadDecoder(codec: codec, clockRate: clockRate)
        var settings = configuration
        settings.maximumPayloadBytes = TaggedPayloadDecoder.tagBytes + (codec == nil ? 0 : Self.maximumPayloadBytes)
        buffer = JitterBuffer(decoder: decoder, configuration: settings)
        format = decoder.format
        decodesAudio = codec != nil
        rtpClockRate = max(decoder.rtpClockRate, 1)
        pullTicks = Self.pullMilliseconds * Double(rtpClockRate) / 1000
        scratch = .allocate(byteCount: settings.maximumPayloadBytes, alignment: 8)
        pcm = .allocate(capacity: buffer.samplesPerPull * max(format.channels, 1))
        pcm.initialize(repeating: 0)
        coverage = SentMediaCoverage(clockRate: rtpClockRate)
        pending = PendingPulls(capacity: Self.pendingPullCapacity)
    }

    deinit {
        scratch.deallocate()
        pcm.deallocate()
    }

    /// Takes the stream's next packet, which arrived at `arrivalMilliseconds`: first pulls every
    /// 10 ms before that time, handing each pull's PCM to `listener`, then inserts the packet.
    /// `payload` is the codec's bytes, `nil` when the capture could not read them (the packet
    /// then plays as silence).
    public func receive(
        sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, payload: UnsafeRawBufferPointer?,
        arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void
    ) {
        guard !isFinished, arrivalMilliseconds.isFinite else { return }
        let sequence = unwrapSequence(sequenceNumber)
        let mediaTimestamp = started ? timestamps.unwrap(RTPTimestamp(timestamp)) : timestamps.reset(to: RTPTimestamp(timestamp))
        if !started {
            started = true
            nextPullMilliseconds = arrivalMilliseconds
        }
        pull(until: arrivalMilliseconds, listener: listener)
        lastArrivalMilliseconds = max(lastArrivalMilliseconds, arrivalMilliseconds)
        guard !seen.insert(sequence) else { return }  // a duplicate
        arrivedPackets += 1
        let offset = arrivalMilliseconds - milliseconds(mediaTimestamp)
        let jumped = abs(offset - lowestOffset) > JitterBuffer<TaggedPayloadDecoder>.timestampJumpMilliseconds
        lowestOffset = lowestOffset.isFinite && !jumped ? min(lowestOffset, offset) : offset
        coverage.record(sequence: sequence, timestamp: mediaTimestamp)
        let codecBytes = decodesAudio ? payload?.count ?? 0 : 0
        guard codecBytes <= Self.maximumPayloadBytes else { return }  // arrived, never played
        TaggedPayloadDecoder.writeTag(
            sequenceNumber: sequence, samples: outputSamples(ofTicks: coverage.frameTicks), into: scratch)
        if let payload, codecBytes > 0 {
            UnsafeMutableRawBufferPointer(rebasing: scratch[TaggedPayloadDecoder.tagBytes...])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: payload[..<codecBytes]))
        }
        buffer.insert(
            IncomingPacket(
                sequenceNumber: sequenceNumber, timestamp: timestamp, marker: marker, payloadType: payloadType, ssrc: 0,
                payload: UnsafeRawBufferPointer(rebasing: scratch[..<(TaggedPayloadDecoder.tagBytes + codecBytes)])),
            arrivalMilliseconds: arrivalMilliseconds)
    }

    /// Takes a packet of the stream that carries no media for the buffer (a telephone event):
    /// its sequence number is not a gap. Pulls up to its arrival like a media packet.
    public func skip(sequenceNumber: UInt16, arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        guard !isFinished, started, arrivalMilliseconds.isFinite else { return }
        let sequence = unwrapSequence(sequenceNumber)
        pull(until: arrivalMilliseconds, listener: listener)
        lastArrivalMilliseconds = max(lastArrivalMilliseconds, arrivalMilliseconds)
        guard !seen.insert(sequence) else { return }
        skippedPackets += 1
        coverage.skip(sequence: sequence)
    }

    /// Pulls for ``drainMilliseconds`` after the last packet and settles the score. Idempotent.
    public func finish(listener: (UnsafeBufferPointer<Int16>) -> Void) {
        guard !isFinished else { return }
        if started { pull(until: lastArrivalMilliseconds + Self.drainMilliseconds + Self.pullMilliseconds / 2, listener: listener) }
        settlePendingPulls(atEnd: true)
        isFinished = true
    }

    /// What was played so far (complete after ``finish(listener:)``).
    public var score: PlayoutScore {
        let span = coverage.highestSequence >= lowestSequence ? Int(clamping: coverage.highestSequence - lowestSequence) : 0
        let sent = started ? max(min(span, Int.max / 2) + 1 - skippedPackets, arrivedPackets) : 0
        let playedArrived = max(playedPackets - recoveredPackets, 0)
        func percent(_ count: Int) -> Double { sent == 0 ? 0 : 100 * Double(max(count, 0)) / Double(sent) }
        return PlayoutScore(
            meanDelayMilliseconds: delays.mean, p50DelayMilliseconds: delays.percentile(0.50),
            p95DelayMilliseconds: delays.percentile(0.95), p99DelayMilliseconds: delays.percentile(0.99),
            networkLossPercent: percent(sent - arrivedPackets), lateLossPercent: percent(arrivedPackets - playedArrived),
            effectiveLossPercent: percent(sent - min(playedPackets, sent)),
            concealmentPercent: tally.concealmentPercent, concealmentEvents: tally.concealmentEvents,
            interruptions: tally.interruptions,
            timeStretchPercent: tally.timeStretchPercent(pullTicks: pullTicks))
    }

    private func unwrapSequence(_ sequenceNumber: UInt16) -> UInt64 {
        guard started else {
            lowestSequence = sequences.reset(to: SequenceNumber(sequenceNumber))
            return lowestSequence
        }
        let sequence = sequences.unwrap(SequenceNumber(sequenceNumber))
        lowestSequence = min(lowestSequence, sequence)
        return sequence
    }

    private func milliseconds(_ ticks: UInt64) -> Double {
        Double(ticks) * 1000 / Double(rtpClockRate)
    }

    private func outputSamples(ofTicks ticks: UInt64) -> Int {
        Int(min(ticks, UInt64(rtpClockRate))) * format.sampleRate / rtpClockRate
    }

    /// Pulls every 10 ms before `time`, shortening a long silence.
    private func pull(until time: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        while nextPullMilliseconds < time {
            let silence = time - nextPullMilliseconds
            if nextPullMilliseconds > lastArrivalMilliseconds + Self.drainMilliseconds,
                silence > Self.longestReplayedSilenceMilliseconds
            {
                let pulls = ((silence - Self.longestReplayedSilenceMilliseconds) / Self.pullMilliseconds).rounded(.down)
                nextPullMilliseconds += pulls * Self.pullMilliseconds
            }
            pullOnce(at: nextPullMilliseconds, listener: listener)
            nextPullMilliseconds += Self.pullMilliseconds
        }
    }

    private func pullOnce(at now: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        let decision = buffer.pull(into: pcm, nowMilliseconds: now)
        listener(UnsafeBufferPointer(pcm))
        let (lowest, highest) = (lowestSequence, coverage.highestSequence)
        var played = 0
        recoveredPackets += buffer.decoder.drainPlayed { sequence in
            if sequence >= lowest && sequence <= highest { played += 1 }
        }
        playedPackets += played
        let timestamp = coverage.unwrap(decision.rtpTimestamp)
        if let previous = previousPull, previous.stretched {
            let advance = Double(Int64(bitPattern: timestamp &- previous.timestamp))
            tally.recordStretch(advanceTicks: advance, pullTicks: pullTicks)
        }
        previousPull = (timestamp, decision.kind == .accelerate || decision.kind == .decelerate)
        let decodedAudio = decision.kind != .conceal && decision.kind != .comfortNoise
        if decodedAudio, lowestOffset.isFinite { delays.record(now - milliseconds(timestamp) - lowestOffset) }
        if pending.isFull { settlePendingPulls(atEnd: false, forcingOne: true) }
        pending.append(PendingPull(timestamp: timestamp, decodedAudio: decodedAudio))
        settlePendingPulls(atEnd: false)
    }

    /// Scores the waiting pulls, oldest first, as far as the arrivals tell whether media was
    /// due; at the end (or to make room, the oldest) whatever is still unknown counts as no
    /// media due.
    private func settlePendingPulls(atEnd: Bool, forcingOne: Bool = false) {
        var forced = forcingOne
        while let pull = pending.first {
            if pull.decodedAudio {
                tally.recordPlayed()
            } else if pull.timestamp < coverage.knownEnd || atEnd || forced {
                if coverage.covers(pull.timestamp) { tally.recordConcealed() } else { tally.recordNoMediaExpected() }
            } else {
                return
            }
            forced = false
            pending.removeFirst()
        }
    }
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
        storage[(head + count) % storage.count] = pull
        count += 1
    }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) % storage.count
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
