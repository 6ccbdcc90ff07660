import Codecs
import RTP

/// An adaptive jitter buffer: a pure, deterministic state machine that holds encoded packets
/// and, every 10 ms, decides what to play.
///
/// There are no clocks or threads inside: the caller passes each packet's arrival time to
/// ``insert(_:arrivalMilliseconds:)-(IncomingPacket,_)`` and calls ``pull(into:nowMilliseconds:)`` once per 10 ms
/// with the current time (``SynchronizedJitterBuffer`` does this across a network and an audio
/// thread). All storage
/// (packet slots, decoded PCM, scratch) is allocated at creation; inserting and pulling allocate
/// nothing.
///
/// How it works:
/// - Packets are placed on a media timeline (64-bit unwrapped timestamps, in output samples).
///   Duplicates are recognised by sequence number; a packet is late when the playout has
///   already passed it (concealed over it), and is then counted and dropped.
/// - A `DelayEstimator` learns the playout delay the network needs from the relative delay of
///   the packets that arrive (plus the part of a pull period each waited for the next pull).
///   At each pull the buffer measures its own playout delay on the same scale and steers it
///   towards the target by time-stretching (`TimeStretcher`: removing or repeating pieces
///   of pauses or whole pitch periods), so clock drift cannot pile up. Shrinking never drops
///   whole frames. The delay moves in the pauses of the speech, found over background noise
///   by `NoiseFloorVoiceActivityDetector` (a pause is stretched freely); voiced speech only
///   when no pause has come for 3 s, so utterances are heard whole. The target rises at once and
///   falls slowly, so the delay moves seldom.
/// - A missing packet is concealed through the decoder (its FEC from the next packet when the
///   decoder has it and that packet is here), fading into comfort noise on long gaps; the first
///   packet after concealment is cross-faded in ("merge"), unless the decoder blends it
///   itself (G.711 Appendix I and Opus do). A gap before a talkspurt start
///   (marker bit, or a timestamp jump larger than the sequence jump) is silence, not loss.
/// - A gap that ends with the next sequence number was the sender's pause (DTX): what was
///   concealed while it was unresolved counts as comfort noise, and from then on a sender that
///   sends no comfort-noise packets has a gap with nothing behind it faded out within 30 ms into
///   silence (what it sent), not concealed for 120 ms into the level a loss fades into.
/// - In silence (comfort noise) the playout point is free: when a talkspurt starts, it keeps
///   the delay it has if that is inside the `DelayBand` around the target, and otherwise plays
///   at the band's settling point (a fixed buffer: at its delay). Leaving comfort noise
///   requires that schedule, which keeps concealment from flapping on and off.
/// - A stream that falls behind for good (its sender paused and went on where its media left
///   off, or the path's delay stepped up beyond the buffer's) is played again from where it
///   is once a few of its late packets have come in a row at its own pace while the buffer
///   waits in comfort noise; a stall's back-to-back backlog stays late.
/// - A new SSRC, or a timestamp that jumps more than 5 s off the arrival clock, starts a new
///   stream.
public struct JitterBuffer<Decoder: AudioDecoder>: ~Copyable {
    /// The settings the buffer was created with.
    public let configuration: JitterBufferConfiguration
    /// The PCM format produced (the decoder's).
    public let format: AudioFormat
    /// Samples per channel produced by each pull: 10 ms.
    public let samplesPerPull: Int
    /// The output sample rate the timeline counts in (the format's, at least 1000 Hz).
    let sampleRate: Int
    /// Concealment of a gap plays at full level up to here, then fades out by the end (samples).
    let fadeStartSamples: Int
    let fadeEndSamples: Int
    /// The fixed waits of the stretching decisions in samples, worked out once
    /// (``pauseWaitMilliseconds``, ``startLeavingPauseMilliseconds``,
    /// ``startLeavingPatienceMilliseconds``): each was converted at every pull.
    let pauseWaitSamples: Int
    let startLeavingPauseSamples: Int
    let startLeavingPatienceSamples: Int
    /// The decoder, which the buffer owns.
    public package(set) var decoder: Decoder
    /// The running counters.
    public var statistics: JitterBufferStatistics {
        var snapshot = counters
        snapshot.currentDelayMilliseconds = currentDelayMilliseconds
        snapshot.targetDelayMilliseconds = estimator.targetMilliseconds
        snapshot.delaySpikes = estimator.spikeCount
        snapshot.driftAnticipationMilliseconds = estimator.isFixed ? 0 : drain.anticipationMilliseconds
        return snapshot
    }

    /// The packets held for playout now (never more than the configured capacity).
    public var storedPacketCount: Int { store.count }

    // Stream and timeline.
    var ssrc: UInt32?
    var sequenceCounter = SequenceUnwrapper()
    var timestampCounter = TimestampUnwrapper()
    var timestampOrigin: UInt64 = 0
    var positionBase: Int64 = 0
    var frameSamples: Int
    var lastInserted: (sequence: UInt64, position: Int64)?
    var lastDecodedSequence: UInt64?
    /// The media position just after the last sample queued for playout.
    var queueEndPosition: Int64 = 0
    /// The media position just after the last sample decoded from a packet.
    var decodedHighWater = Int64.min

    // Playout state.
    enum Mode { case comfortNoise, speech, concealing }
    enum Stretch { case none, accelerating, decelerating }
    var mode = Mode.comfortNoise
    var stretchState = Stretch.none
    /// How fast the playout drains the buffer by drift (see ``DrainMeter``).
    var drain = DrainMeter()
    var nextStretchAllowed = 0
    /// When the last pause (no speech, comfort noise) was queued, in played samples.
    var lastQuietSample = 0
    /// How much audio without speech has been queued in a row, in samples.
    var quietRunSamples = 0
    var concealedRunSamples = 0
    /// Concealment played in place (the media position held) while waiting for a late packet:
    /// delay the buffer added without stretching, which ``DrainMeter`` counts with it.
    var heldInPlaceSamples = 0
    var openConcealmentStart: Int?
    var currentDelayMilliseconds = 0.0
    /// The target the delay band steers by at this pull (``steeringTarget(nowMilliseconds:packetPosition:)``).
    var steeringTargetMilliseconds = 0.0
    var pendingArrivals = PendingArrivals()
    /// The instants the pulls were due: a pull that runs late is timed on the grid of the recent
    /// pulls (``PullClock``).
    var pullClock: PullClock
    /// Late packets in a row that came at the stream's pace (half a frame or more apart), and
    /// when the last late packet came.
    var pacedLatePackets = 0
    var lastLateArrivalMilliseconds = -Double.infinity
    var noiseLevel = 0.0
    /// How the sender fills its pauses, as far as the stream has shown it.
    var senderPauses = SenderPauses.unknown
    /// Whether the delay is still the one the buffer started with (no shrink since the start,
    /// and the network has needed no more).
    var holdsStartDelay = true
    var counters = JitterBufferStatistics()
    /// The telephone event under way, played as its tone (``TelephoneEventTone``).
    var tone: TelephoneEventTone?
    var toneGenerator = DTMFToneGenerator()

    // Parts and fixed storage.
    var estimator: DelayEstimator
    var store: PacketStore
    var queue: PCMQueue
    var stretcher: TimeStretcher
    var received = ReceivedWindow()
    var comfortNoise = ComfortNoise()
    /// Finds the pauses of the decoded speech, where the delay moves.
    var pauseDetector: NoiseFloorVoiceActivityDetector
    /// The payload types of ``JitterBufferConfiguration/telephoneEvents``, asked at every insert.
    let telephoneEventPayloadTypes: PayloadTypeSet
    let decodeScratch: UnsafeMutableBufferPointer<Int16>
    let overlapScratch: UnsafeMutableBufferPointer<Int16>

    /// The largest distance of a timestamp from the arrival clock before it counts as a jump.
    package static var timestampJumpMilliseconds: Double { 5000 }

    /// A buffer that decodes with `decoder`.
    public init(decoder: Decoder, configuration: JitterBufferConfiguration = JitterBufferConfiguration()) {
        self.init(decoder: decoder, configuration: configuration, lendableSlots: 0)
    }

    /// A buffer whose store has `lendableSlots` payload slots beyond its packet capacity to lend
    /// (``lendSlot()``): a ``SynchronizedJitterBuffer``'s inbox writes payloads into them.
    init(decoder: Decoder, configuration: JitterBufferConfiguration, lendableSlots: Int) {
        self.decoder = decoder
        self.configuration = configuration
        telephoneEventPayloadTypes = PayloadTypeSet(configuration.telephoneEvents.map { Int($0.payloadType) })
        format = decoder.format
        let rate = max(format.sampleRate, 1000)
        sampleRate = rate
        fadeStartSamples = Self.samples(configuration.concealmentFadeStartMilliseconds, rate: rate)
        fadeEndSamples = fadeStartSamples + Self.samples(configuration.concealmentFadeMilliseconds, rate: rate)
        pauseWaitSamples = Int(Self.mediaPosition(ofMilliseconds: Self.pauseWaitMilliseconds, sampleRate: rate))
        startLeavingPauseSamples = Int(Self.mediaPosition(ofMilliseconds: Self.startLeavingPauseMilliseconds, sampleRate: rate))
        startLeavingPatienceSamples = Int(Self.mediaPosition(ofMilliseconds: Self.startLeavingPatienceMilliseconds, sampleRate: rate))
        let channels = max(format.channels, 1)
        samplesPerPull = rate / 100
        let maximumFrame = rate * min(max(configuration.maximumFrameMilliseconds, 10), 1000) / 1000
        frameSamples = rate / 50
        pullClock = PullClock(periodMilliseconds: Double(samplesPerPull) * 1000 / Double(rate))
        estimator = DelayEstimator(configuration: configuration)
        store = PacketStore(
            capacity: configuration.packetCapacity, lendableSlots: lendableSlots, maximumPayloadBytes: configuration.maximumPayloadBytes)
        stretcher = TimeStretcher(sampleRate: rate, channels: channels)
        pauseDetector = NoiseFloorVoiceActivityDetector(configuration: .init(sampleRate: rate, channels: channels))
        queue = PCMQueue(capacity: 2 * maximumFrame + 2 * stretcher.fullSearchFrames + samplesPerPull, channels: channels)
        decodeScratch = .allocate(capacity: maximumFrame * channels)
        decodeScratch.initialize(repeating: 0)
        overlapScratch = .allocate(capacity: samplesPerPull * channels)
        overlapScratch.initialize(repeating: 0)
    }

    deinit {
        decodeScratch.deallocate()
        overlapScratch.deallocate()
    }

    /// Takes one packet that arrived at `arrivalMilliseconds` (any monotonic clock, the same for
    /// every call), copying its payload into the store.
    @discardableResult
    public mutating func insert(_ packet: IncomingPacket, arrivalMilliseconds: Double) -> InsertOutcome {
        let (outcome, placement) = admit(packet, arrivalMilliseconds: arrivalMilliseconds)
        if let placement {
            store.insert(
                sequence: placement.sequence, position: placement.position, payloadType: packet.payloadType, marker: packet.marker,
                payload: packet.payload
            )
        }
        return outcome
    }

    /// Takes one packet whose payload is already in the store's lent `slot` (its `payload`
    /// points there): the slot becomes the stored packet without a copy, or is taken back
    /// when the packet is dropped.
    mutating func insert(lentSlot slot: Int, _ packet: IncomingPacket, arrivalMilliseconds: Double) {
        let (_, placement) = admit(packet, arrivalMilliseconds: arrivalMilliseconds)
        guard let placement else { return store.takeBack(slot) }
        store.adopt(
            slot, length: packet.payload.count, sequence: placement.sequence, position: placement.position,
            payloadType: packet.payloadType, marker: packet.marker)
    }

    /// Lends a payload slot of the store and its memory, or `nil` when every lendable slot is
    /// out; it comes back through ``insert(lentSlot:_:arrivalMilliseconds:)``.
    mutating func lendSlot() -> (slot: Int, memory: UnsafeMutableRawBufferPointer)? {
        guard let slot = store.lend() else { return nil }
        return (slot, store.memory(of: slot))
    }

    /// Takes back a slot lent by ``lendSlot()`` that carries no packet after all.
    mutating func takeBack(lentSlot slot: Int) {
        store.takeBack(slot)
    }

    /// Counts `packet` and decides its fate: where it goes on the timeline when it is to be
    /// stored (room is made in the store first), `nil` when it is dropped.
    private mutating func admit(
        _ packet: IncomingPacket, arrivalMilliseconds: Double
    ) -> (outcome: InsertOutcome, placement: (sequence: UInt64, position: Int64)?) {
        counters.packetsReceived += 1
        guard packet.payload.count <= store.maximumPayloadBytes else {
            counters.packetsDiscarded += 1
            return (.oversized, nil)
        }
        guard arrivalMilliseconds.isFinite, abs(arrivalMilliseconds) < 1e12 else {
            counters.packetsDiscarded += 1
            return (.invalidArrivalTime, nil)
        }
        var reset = false
        if ssrc != packet.ssrc {
            startStream(packet)
            reset = true
        }
        let highestBefore = sequenceCounter.highest
        var sequence = sequenceCounter.unwrap(SequenceNumber(packet.sequenceNumber))
        var position = position(ofTimestamp: timestampCounter.unwrap(RTPTimestamp(packet.timestamp)))
        // A telephone event repeats its start timestamp for as long as it lasts: its timestamp
        // says nothing of a jump, the network's delay or the frame length, and it is never late
        // as a whole.
        let eventClockRate = telephoneEventClockRate(ofPayloadType: packet.payloadType)
        if eventClockRate == nil, !reset,
            abs(arrivalMilliseconds - milliseconds(position) - estimator.referenceOffsetMilliseconds) > Self.timestampJumpMilliseconds
        {
            startStream(packet)
            reset = true
            sequence = sequenceCounter.highest
            position = positionBase
        }
        if received.insert(sequence) {
            counters.duplicatePackets += 1
            return (.duplicate, nil)
        }
        estimator.recordSequence(missing: reset ? 0 : sequence > highestBefore ? Int(min(sequence - highestBefore - 1, 1000)) : -1)
        if let eventClockRate {
            recordTelephoneEvent(packet.payload, position: position, clockRate: eventClockRate)
            return (reset ? .acceptedAfterReset : .accepted, nil)
        }
        let relativeDelay = estimator.relativeDelay(arrivalMilliseconds: arrivalMilliseconds, mediaMilliseconds: milliseconds(position))
        pendingArrivals.append(relativeDelay: relativeDelay, arrivalMilliseconds: arrivalMilliseconds, to: &estimator)
        learnFrameLength(sequence: sequence, position: position)
        if isLate(sequence: sequence, position: position, marker: packet.marker) {
            guard resumesBehindSender(position: position, arrivalMilliseconds: arrivalMilliseconds) else {
                counters.latePackets += 1
                return (.late, nil)
            }
        } else {
            pacedLatePackets = 0
        }
        if store.isFull, let earliest = store.earliest() {
            store.remove(earliest)
            counters.packetsDiscarded += 1
        }
        return (reset ? .acceptedAfterReset : .accepted, (sequence, position))
    }

    /// Tells the conversational delay target how much mouth-to-ear delay the call has outside
    /// the buffer, in milliseconds (half the fastest recent RTCP round trip, the path without
    /// the queueing the buffer's own delay holds, plus packetisation and codec delay): the
    /// dearer delay is, the more late loss the target accepts. No effect with a
    /// quantile target (``JitterBufferConfiguration/conversationalBaseDelayMilliseconds`` nil)
    /// or a fixed one. Allocates (the cost tables are shared by the process's buffers, per
    /// delay); call it when the figure changes (an RTCP report), not per packet.
    public mutating func updateDelayOutsideBuffer(milliseconds: Double) {
        estimator.updateDelayOutsideBuffer(milliseconds: milliseconds)
    }

    /// The media position of the next sample to be played.
    var playoutPosition: Int64 { queueEndPosition - Int64(queue.count) }

    /// Milliseconds on the media timeline.
    func milliseconds(_ position: Int64) -> Double {
        Double(position) * 1000 / Double(sampleRate)
    }

    /// The media position of an unwrapped timestamp of the current stream.
    func position(ofTimestamp timestamp: UInt64) -> Int64 {
        let ticks = Int64(bitPattern: timestamp &- timestampOrigin)
        return positionBase &+ ticks &* Int64(sampleRate) / Int64(max(decoder.rtpClockRate, 1))
    }

    /// The wire timestamp of a media position of the current stream.
    func timestamp(ofPosition position: Int64) -> UInt32 {
        let ticks = (position &- positionBase) &* Int64(max(decoder.rtpClockRate, 1)) / Int64(sampleRate)
        return UInt32(truncatingIfNeeded: timestampOrigin &+ UInt64(bitPattern: ticks))
    }

    /// Restarts on a new stream: forgets its packets and timeline, keeps what was learnt of the
    /// network and the audio already queued, and waits in comfort noise for its first packet.
    private mutating func startStream(_ packet: IncomingPacket) {
        if ssrc != nil { counters.streamResets += 1 }
        ssrc = packet.ssrc
        sequenceCounter.reset(to: SequenceNumber(packet.sequenceNumber))
        timestampOrigin = timestampCounter.reset(to: RTPTimestamp(packet.timestamp))
        positionBase = queueEndPosition
        decodedHighWater = Int64.min
        lastInserted = nil
        lastDecodedSequence = nil
        store.removeAll()
        received.removeAll()
        tone = nil
        pacedLatePackets = 0
        senderPauses = .unknown
        estimator.resetReference()
        mode = .comfortNoise
        stretchState = .none
    }

    private mutating func learnFrameLength(sequence: UInt64, position: Int64) {
        if let last = lastInserted, sequence == last.sequence + 1 {
            let step = position - last.position
            if step > 0, step <= Int64(decodeScratch.count / queue.channels) { frameSamples = Int(step) }
        }
        lastInserted = (sequence, position)
    }

    /// Whether a packet comes too late to be played: it overlaps audio already decoded, or the
    /// playout has passed it, unless it starts a talkspurt while the buffer plays silence.
    private func isLate(sequence: UInt64, position: Int64, marker: Bool) -> Bool {
        if position < decodedHighWater { return true }
        if mode == .comfortNoise, startsTalkspurt(sequence: sequence, position: position, marker: marker) { return false }
        return position + Int64(frameSamples) <= queueEndPosition
    }

    /// After this many late packets in a row at the stream's pace, while the buffer waits in
    /// comfort noise, the next one is played (``resumesBehindSender(position:arrivalMilliseconds:)``).
    static var pacedLatePacketsBeforeResuming: Int { 3 }

    /// Whether a late packet resumes a stream that fell behind its playout for good: a sender
    /// that paused and went on where its media left off, or a path whose delay stepped up by
    /// more than the buffer holds. Every later packet would come after its slot too, and the
    /// buffer would play comfort noise for the rest of the call. So, once a concealment has
    /// faded out (the buffer waits in comfort noise, where the playout point is free), a few
    /// late packets in a row that come one by one at the stream's pace make the next one play
    /// from where it is, as a talkspurt would; the delay grows by the lag. A stall's backlog,
    /// which comes back to back, stays late: after it the stream is on time again.
    private mutating func resumesBehindSender(position: Int64, arrivalMilliseconds: Double) -> Bool {
        guard mode == .comfortNoise, openConcealmentStart != nil, position >= decodedHighWater else {
            pacedLatePackets = 0
            return false
        }
        let paced = arrivalMilliseconds - lastLateArrivalMilliseconds >= milliseconds(Int64(frameSamples)) / 2
        lastLateArrivalMilliseconds = arrivalMilliseconds
        pacedLatePackets = paced ? pacedLatePackets + 1 : 0
        guard pacedLatePackets > Self.pacedLatePacketsBeforeResuming else { return false }
        pacedLatePackets = 0
        return true
    }

    /// Whether a packet starts a talkspurt: its marker bit, or more media time since the last
    /// decoded packet than the missing sequence numbers explain.
    func startsTalkspurt(sequence: UInt64, position: Int64, marker: Bool) -> Bool {
        if marker { return true }
        guard let lastDecodedSequence, sequence > lastDecodedSequence, decodedHighWater != .min else { return false }
        let missing = Int64(sequence - lastDecodedSequence - 1)
        return position - decodedHighWater > missing * Int64(frameSamples) + Int64(frameSamples / 2)
    }

    /// Places the playout point, while in silence, so that the earliest stored packet plays at
    /// the delay wanted, or at once if it is already later than that. A fixed buffer wants its
    /// delay; an adaptive one keeps the delay it has when that is inside its ``DelayBand``, and
    /// otherwise wants the band's settling point: a talkspurt moves the delay only when a
    /// stretch would, so on a DTX stream the delay does not follow every small move of the
    /// target (each talkspurt at its own delay made a DTX trace's speech score lower).
    mutating func scheduleTalkspurt(nowMilliseconds: Double) {
        guard let earliest = store.earliest() else { return }
        let target = steeringTarget(nowMilliseconds: nowMilliseconds, packetPosition: store.position(earliest))
        var delay = target
        if !estimator.isFixed {
            let band = delayBand
            let current = nowMilliseconds - milliseconds(playoutPosition) - estimator.referenceOffsetMilliseconds
            delay = decodedHighWater != .min && band.contains(error: current - target) ? current : target + band.settle
        }
        let desired = mediaPosition(ofMilliseconds: nowMilliseconds - estimator.referenceOffsetMilliseconds - delay)
        let start = max(min(desired, store.position(earliest)), decodedHighWater)
        queue.removeAll()  // comfort noise only: nothing of the media is lost
        queueEndPosition = start
    }

    /// The target the delay band steers by: the estimator's, lowered to just above the point of
    /// the pull lattice that plays the same packets (``PullLattice``), for packets starting on the
    /// grid of `packetPosition`. The estimator's own while drift drains the buffer (the lattice
    /// moves then, and the band's margin is what holds the packets until the next pause), for a
    /// fixed buffer, and for packets that do not start on whole pulls.
    func steeringTarget(nowMilliseconds: Double, packetPosition: Int64) -> Double {
        let target = estimator.targetMilliseconds
        guard !estimator.isFixed, drain.anticipationMilliseconds == 0, frameSamples % samplesPerPull == 0 else { return target }
        let lattice = PullLattice(
            periodMilliseconds: milliseconds(Int64(samplesPerPull)), bucketMilliseconds: estimator.bucketMilliseconds)
        let phase = lattice.phase(
            pullMilliseconds: nowMilliseconds, referenceMilliseconds: estimator.referenceOffsetMilliseconds,
            packetMilliseconds: milliseconds(packetPosition))
        return lattice.settlingTarget(target: target, settle: delayBand.settle, phase: phase)
    }

    /// A duration from the configuration in samples, limited to 0…10 s.
    private static func samples(_ milliseconds: Double, rate: Int) -> Int {
        milliseconds.isFinite ? Int(min(max(milliseconds, 0), 10_000) * Double(rate) / 1000) : 0
    }

    /// The media position of a time on the media timeline (the sample at or before it).
    func mediaPosition(ofMilliseconds milliseconds: Double) -> Int64 {
        Self.mediaPosition(ofMilliseconds: milliseconds, sampleRate: sampleRate)
    }

    /// ``mediaPosition(ofMilliseconds:)`` at `sampleRate`.
    private static func mediaPosition(ofMilliseconds milliseconds: Double, sampleRate: Int) -> Int64 {
        let samples = milliseconds * Double(sampleRate) / 1000
        // A value this large is a whole number (its floor), so the bound is the floor's.
        guard samples.isFinite, abs(samples) < 0x1p62 else { return samples < 0 ? -(1 << 62) : 1 << 62 }
        // The floor from the truncation: `rounded(.down)` is a call into libm on baseline x86-64.
        let truncated = Int64(samples)
        return Double(truncated) > samples ? truncated - 1 : truncated
    }
}
