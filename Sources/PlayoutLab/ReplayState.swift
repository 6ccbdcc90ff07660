import Jitter
import Codecs
import RTP

/// Everything a ``StreamPlayoutReplay`` holds and does, in one value: the class makes one
/// access to it per call, where each of its own stored properties would be an access that
/// Swift checks at run time (exclusivity), several per packet and per pull.
struct ReplayState: ~Copyable {
    let format: AudioFormat
    let decodesAudio: Bool
    private var buffer: TaggedJitterBuffer
    private let rtpClockRate: Int
    /// RTP ticks in one 10 ms pull.
    private let pullTicks: Double
    /// Where a pull's PCM goes: ``samplesPerPull`` frames for the listener, or none when
    /// nobody listens (the buffer then drops the pull's audio without copying it).
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
    private(set) var isFinished = false

    /// See ``StreamPlayoutReplay/init(codec:clockRate:configuration:deliversAudio:)``.
    init(
        codec: (any AudioDecoder)?, clockRate: Int, configuration: JitterBufferConfiguration = JitterBufferConfiguration(),
        deliversAudio: Bool = true
    ) {
        let decoder = TaggedPayloadDecoder(codec: codec, clockRate: clockRate)
        var settings = configuration
        settings.maximumPayloadBytes = TaggedPayloadDecoder.tagBytes + (codec == nil ? 0 : StreamPlayoutReplay.maximumPayloadBytes)
        buffer = TaggedJitterBuffer(decoder: decoder, configuration: settings)
        format = decoder.format
        decodesAudio = codec != nil
        rtpClockRate = max(decoder.rtpClockRate, 1)
        pullTicks = StreamPlayoutReplay.pullMilliseconds * Double(rtpClockRate) / 1000
        pcm = .allocate(capacity: deliversAudio ? buffer.samplesPerPull * max(format.channels, 1) : 0)
        pcm.initialize(repeating: 0)
        coverage = SentMediaCoverage(clockRate: rtpClockRate)
        pending = PendingPulls(capacity: StreamPlayoutReplay.pendingPullCapacity)
    }

    deinit {
        pcm.deallocate()
    }

    /// See ``StreamPlayoutReplay/receive(sequenceNumber:timestamp:marker:payloadType:payload:arrivalMilliseconds:listener:)``.
    mutating func receive(
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
        let jumped = abs(offset - lowestOffset) > TaggedJitterBuffer.timestampJumpMilliseconds
        lowestOffset = lowestOffset.isFinite && !jumped ? min(lowestOffset, offset) : offset
        coverage.record(sequence: sequence, timestamp: mediaTimestamp)
        let codecBytes = decodesAudio ? payload?.count ?? 0 : 0
        guard codecBytes <= StreamPlayoutReplay.maximumPayloadBytes else { return }  // arrived, never played
        buffer.insertTagged(
            IncomingPacket(
                sequenceNumber: sequenceNumber, timestamp: timestamp, marker: marker, payloadType: payloadType, ssrc: 0,
                payload: UnsafeRawBufferPointer(start: nil, count: 0)),
            sequence: sequence, samples: outputSamples(ofTicks: coverage.frameTicks),
            codecBytes: payload.map { UnsafeRawBufferPointer(rebasing: $0[..<codecBytes]) }, arrivalMilliseconds: arrivalMilliseconds)
    }

    /// See ``StreamPlayoutReplay/skip(sequenceNumber:arrivalMilliseconds:listener:)``.
    mutating func skip(sequenceNumber: UInt16, arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        _ = takeWithoutMedia(sequenceNumber: sequenceNumber, arrivalMilliseconds: arrivalMilliseconds, listener: listener)
    }

    /// See ``StreamPlayoutReplay/receiveTelephoneEvent(sequenceNumber:timestamp:marker:payloadType:payload:arrivalMilliseconds:listener:)``.
    mutating func receiveTelephoneEvent(
        sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, payload: UnsafeRawBufferPointer,
        arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void
    ) {
        guard takeWithoutMedia(sequenceNumber: sequenceNumber, arrivalMilliseconds: arrivalMilliseconds, listener: listener) else {
            return
        }
        buffer.insert(
            IncomingPacket(
                sequenceNumber: sequenceNumber, timestamp: timestamp, marker: marker, payloadType: payloadType, ssrc: 0,
                payload: payload),
            arrivalMilliseconds: arrivalMilliseconds)
    }

    /// Telephone-event samples played so far (``StreamPlayoutReplay/toneSamples``).
    var toneSamples: Int { buffer.toneSamples }

    /// Takes a packet that carries no media of the stream: pulls up to its arrival, and its
    /// sequence number is not a gap. Returns whether it is new (not a duplicate, nor before
    /// the stream's first media packet).
    private mutating func takeWithoutMedia(
        sequenceNumber: UInt16, arrivalMilliseconds: Double, listener: (UnsafeBufferPointer<Int16>) -> Void
    ) -> Bool {
        guard !isFinished, started, arrivalMilliseconds.isFinite else { return false }
        let sequence = unwrapSequence(sequenceNumber)
        pull(until: arrivalMilliseconds, listener: listener)
        lastArrivalMilliseconds = max(lastArrivalMilliseconds, arrivalMilliseconds)
        guard !seen.insert(sequence) else { return false }
        skippedPackets += 1
        coverage.skip(sequence: sequence)
        return true
    }

    /// See ``StreamPlayoutReplay/finish(listener:)``.
    mutating func finish(listener: (UnsafeBufferPointer<Int16>) -> Void) {
        guard !isFinished else { return }
        if started {
            pull(until: lastArrivalMilliseconds + StreamPlayoutReplay.drainMilliseconds + StreamPlayoutReplay.pullMilliseconds / 2, listener: listener)
        }
        settlePendingPulls(atEnd: true)
        isFinished = true
    }

    /// See ``StreamPlayoutReplay/score``.
    var score: PlayoutScore {
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

    private mutating func unwrapSequence(_ sequenceNumber: UInt16) -> UInt64 {
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
    private mutating func pull(until time: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        while nextPullMilliseconds < time {
            let silence = time - nextPullMilliseconds
            if nextPullMilliseconds > lastArrivalMilliseconds + StreamPlayoutReplay.drainMilliseconds,
                silence > StreamPlayoutReplay.longestReplayedSilenceMilliseconds
            {
                let pulls = ((silence - StreamPlayoutReplay.longestReplayedSilenceMilliseconds) / StreamPlayoutReplay.pullMilliseconds).rounded(.down)
                nextPullMilliseconds += pulls * StreamPlayoutReplay.pullMilliseconds
            }
            pullOnce(at: nextPullMilliseconds, listener: listener)
            nextPullMilliseconds += StreamPlayoutReplay.pullMilliseconds
        }
    }

    private mutating func pullOnce(at now: Double, listener: (UnsafeBufferPointer<Int16>) -> Void) {
        let decision = buffer.pull(into: pcm, nowMilliseconds: now)
        if !pcm.isEmpty { listener(UnsafeBufferPointer(pcm)) }
        let (lowest, highest) = (lowestSequence, coverage.highestSequence)
        var played = 0
        recoveredPackets += buffer.drainPlayed { sequence in
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
        // Most pulls play audio with no earlier pull waiting: scored at once, as the queue
        // would score it.
        if decodedAudio, pending.count == 0 {
            tally.recordPlayed()
            return
        }
        if pending.isFull { settlePendingPulls(atEnd: false, forcingOne: true) }
        pending.append(PendingPull(timestamp: timestamp, decodedAudio: decodedAudio))
        settlePendingPulls(atEnd: false)
    }

    /// Scores the waiting pulls, oldest first, as far as the arrivals tell whether media was
    /// due; at the end (or to make room, the oldest) whatever is still unknown counts as no
    /// media due.
    private mutating func settlePendingPulls(atEnd: Bool, forcingOne: Bool = false) {
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
