#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Codecs
import RTP

extension JitterBuffer {
    /// Plays the next 10 ms at `nowMilliseconds` (the clock of the arrival times): fills
    /// `output` with ``samplesPerPull`` samples per channel (interleaved; a shorter buffer gets
    /// the first part, a longer one silence after the 10 ms) and says what was played. A pull
    /// that comes later than the grid of the recent pulls (a busy audio thread) counts at the
    /// instant it was due: it fills the same place of the output.
    public mutating func pull(into output: UnsafeMutableBufferPointer<Int16>, nowMilliseconds pulledMilliseconds: Double) -> PlayoutDecision {
        let nowMilliseconds = pullClock.dueMilliseconds(pullAt: pulledMilliseconds)
        pendingArrivals.record(at: nowMilliseconds, pullIntervalMilliseconds: pullClock.periodMilliseconds, to: &estimator)
        if mode == .comfortNoise { scheduleTalkspurt(nowMilliseconds: nowMilliseconds) }
        currentDelayMilliseconds = nowMilliseconds - milliseconds(playoutPosition) - estimator.referenceOffsetMilliseconds
        steeringTargetMilliseconds =
            decodedHighWater == .min
            ? estimator.targetMilliseconds : steeringTarget(nowMilliseconds: nowMilliseconds, packetPosition: decodedHighWater)
        let channels = queue.channels
        let wanted = min(output.count / channels, samplesPerPull)
        let startPosition = playoutPosition
        let modeBefore = mode
        var produced: PlayoutDecision.Kind?
        while queue.count < samplesPerPull {
            let kind = produceChunk()
            produced = produced == .merge ? .merge : kind
        }
        if let stretched = stretchIfNeeded() { produced = produced == .merge ? .merge : stretched }
        queue.read(frames: wanted, into: output)
        // Keep the 10 ms cadence even for a short output buffer; zero anything left over.
        queue.discardHead(frames: samplesPerPull - wanted)
        for index in (wanted * channels)..<output.count { output[index] = 0 }
        counters.playedSamples += samplesPerPull
        if counters.playedSamples % sampleRate < samplesPerPull {
            drain.record(
                addedMilliseconds: milliseconds(Int64(counters.insertedSamples - counters.removedSamples + heldInPlaceSamples)),
                targetMilliseconds: estimator.targetMilliseconds)
        }
        let kind = produced ?? Self.kind(of: modeBefore)
        return PlayoutDecision(kind: kind, rtpTimestamp: timestamp(ofPosition: startPosition))
    }

    private static func kind(of mode: Mode) -> PlayoutDecision.Kind {
        switch mode {
        case .speech: .normal
        case .concealing: .conceal
        case .comfortNoise: .comfortNoise
        }
    }

    /// Queues the next piece of audio at the end of the queue and says what it was.
    private mutating func produceChunk() -> PlayoutDecision.Kind {
        let end = queueEndPosition
        discardPassedPackets()
        let next = store.earliest()
        if let next, store.position(next) <= end {
            return decodeStored(next)
        }
        if let frames = toneFrames(at: end, nextPosition: next.map { store.position($0) }) {
            playTone(frames: frames)
            return .normal
        }
        let gap = next.map { Int(min(store.position($0) - end, Int64(samplesPerPull))) } ?? samplesPerPull
        switch mode {
        case .comfortNoise:
            playComfortNoise(frames: gap)
            return .comfortNoise
        case .speech, .concealing:
            if let next, startsTalkspurt(sequence: store.sequence(next), position: store.position(next), marker: store.marker(next)) {
                if resumesAfterSenderPause(sequence: store.sequence(next), position: store.position(next)) { recordSenderPause() }
                closeConcealmentEvent(resumedByTalkspurt: true)
                mode = .comfortNoise
                playComfortNoise(frames: gap)
                return .comfortNoise
            }
            if next == nil, concealedRunSamples >= concealmentFade(nothingBehind: true).end {
                mode = .comfortNoise  // faded out: wait in silence (the event stays open)
                playComfortNoise(frames: samplesPerPull)
                return .comfortNoise
            }
            // With nothing at all to play, the next packet may be late rather than lost: as
            // long as the delay distribution says lateness that long is plausible, the
            // concealment waits for it (the media does not advance, the delay grows; not in
            // a fixed buffer); beyond that the gap is treated as loss. A delay below the target
            // waits too while the network is still being learnt, or when most packets would
            // come too late for it (``waitsBelowTarget``).
            let waits =
                next == nil && !estimator.isFixed
                && (waitsBelowTarget || concealedRunSamples + samplesPerPull <= inPlaceConcealmentSamples)
            conceal(before: next, advancing: !waits)
            return .conceal
        }
    }

    /// Drops packets the playout has gone past without playing (overtaken by a schedule).
    private mutating func discardPassedPackets() {
        while let earliest = store.earliest(), store.position(earliest) + Int64(frameSamples) <= queueEndPosition {
            store.remove(earliest)
            counters.packetsDiscarded += 1
        }
    }

    /// Whether a gap with nothing behind it, the delay being below the target, is concealed in
    /// place (the delay grows now and the late packet still plays) rather than as loss (the delay
    /// grows at the next pause). In place while the network is still being learnt: a start
    /// below the network's jitter lost 2 % of a recorded trace's packets as late at the next
    /// pause. In place too when more than half of the packets would come too late for the delay
    /// (``brokenLateFraction``): a buffer that clock drift drains below the network's transit,
    /// concealing every other pull where stretching cannot run, climbs back. Otherwise the gap
    /// is loss: growing in place mid-utterance for a target that a late packet of the tail
    /// raised warped the speech it landed in (on a recorded DTX trace, 1.2 R below a fixed
    /// buffer at the same late loss, against 0.75 R when the growth waits for a talkspurt).
    private var waitsBelowTarget: Bool {
        guard currentDelayMilliseconds < steeringTargetMilliseconds else { return false }
        return estimator.isLearning || estimator.lateFraction(atDelayMilliseconds: currentDelayMilliseconds) > Self.brokenLateFraction
    }

    /// Above this share of packets late at the current delay, the stream is broken, not
    /// tailing: concealment waits in place below the target (``waitsBelowTarget``). R_conv on
    /// the recorded traces and the scenarios was the same from 0.2 to 0.8.
    static var brokenLateFraction: Double { 0.5 }

    /// How much concealment may wait in place for a late packet: the reach of the delay
    /// distribution beyond the target, two pulls at most. None where the network has no such
    /// tail (loss with little jitter): there the gap is loss, and waiting would only add delay
    /// that must be stretched away again, as a fixed buffer never does.
    private var inPlaceConcealmentSamples: Int {
        min(Int(mediaPosition(ofMilliseconds: estimator.tailMilliseconds)), 2 * samplesPerPull)
    }

    /// Decodes the stored packet `slot`, which covers the end of the queue, and queues its audio
    /// from there on (cross-faded from concealment when it follows concealment).
    private mutating func decodeStored(_ slot: Int) -> PlayoutDecision.Kind {
        let position = store.position(slot)
        let sequence = store.sequence(slot)
        let marker = store.marker(slot)
        let skip = Int(queueEndPosition - position)
        if let comfortNoiseType = configuration.comfortNoisePayloadType, store.payloadType(slot) == comfortNoiseType {
            // An empty CN payload carries no level: play the quietest one.
            let level = (try? ComfortNoisePayload(parsing: store.payload(slot)))?.noiseLevel ?? 127
            noiseLevel = Self.meanMagnitude(ofNoiseLevel: level)
            senderPauses = .comfortNoisePackets
            store.remove(slot)
            finishDecoded(sequence: sequence, end: position + Int64(frameSamples))
            closeConcealmentEvent(resumedByTalkspurt: true)
            mode = .comfortNoise
            playComfortNoise(frames: samplesPerPull)
            return .comfortNoise
        }
        // A gap that ends with the next sequence number was the sender's pause, not a loss.
        let senderPaused = resumesAfterSenderPause(sequence: sequence, position: position)
        if senderPaused { recordSenderPause() }
        let merging = mode == .concealing || (mode == .comfortNoise && openConcealmentStart != nil)
        // Cross-fade from concealment, unless the decoder blends its first frame itself.
        let overlap = merging && !decoder.blendsAfterConcealment ? concealOverlap() : 0
        let channels = queue.channels
        let decoded = (try? decoder.decode(store.payload(slot), into: decodeScratch)) ?? 0
        store.remove(slot)
        let frames = min(decoded, decodeScratch.count / channels)
        guard frames > skip else {
            counters.packetsDiscarded += 1
            return mode == .comfortNoise ? .comfortNoise : .conceal
        }
        if overlap > 0 { crossFadeFromOverlap(frames: min(overlap, frames - skip), at: skip) }
        let audio = UnsafeBufferPointer(rebasing: decodeScratch[(skip * channels)..<(frames * channels)])
        queue.append(audio)
        trackNoiseLevel(frames: frames - skip, audio: audio)
        finishDecoded(sequence: sequence, end: position + Int64(frames))
        let resumed: PlayoutDecision.Kind = mode == .speech ? .normal : (merging ? .merge : .normal)
        closeConcealmentEvent(resumedByTalkspurt: marker || !merging || senderPaused)
        mode = .speech
        return resumed
    }

    private mutating func finishDecoded(sequence: UInt64, end: Int64) {
        queueEndPosition = max(queueEndPosition, end)
        decodedHighWater = max(decodedHighWater, end)
        lastDecodedSequence = sequence
        concealedRunSamples = 0
    }

    /// Conceals up to 10 ms for the missing packet at the end of the queue, through the
    /// decoder's FEC when the packet after the gap is here and carries it.
    private mutating func conceal(before next: Int?, advancing: Bool) {
        let channels = queue.channels
        var frames = samplesPerPull
        var recovered = false
        if let next, decoder.supportsForwardErrorCorrection, let lastDecodedSequence,
            store.sequence(next) == lastDecodedSequence + 2, decoder.carriesForwardErrorCorrection(in: store.payload(next))
        {
            let missing = Int(min(store.position(next) - queueEndPosition, Int64(decodeScratch.count / channels)))
            frames = (try? decoder.decodeFEC(from: store.payload(next), samplesPerChannel: missing, into: decodeScratch)) ?? 0
            recovered = frames > 0
        }
        if !recovered {
            frames = (try? decoder.decode(lost: samplesPerPull, into: decodeScratch)) ?? 0
        }
        frames = min(max(frames, 0), decodeScratch.count / channels)
        if frames == 0 {
            frames = samplesPerPull
            for index in 0..<(frames * channels) { decodeScratch[index] = 0 }
        }
        if !recovered { fadeConcealment(frames: frames, fade: concealmentFade(nothingBehind: next == nil)) }
        queue.append(UnsafeBufferPointer(rebasing: decodeScratch[0..<(frames * channels)]))
        if advancing { queueEndPosition += Int64(frames) } else { heldInPlaceSamples += frames }
        concealedRunSamples += frames
        counters.concealedSamples += frames
        if recovered {
            // Media decoded from a packet (the next one's FEC): the recovered packet's own
            // audio, so the stream continues from there (``resumesAfterSenderPause(sequence:position:)``).
            counters.recoveredSamples += frames
            lastDecodedSequence = lastDecodedSequence.map { $0 + 1 }
            decodedHighWater = max(decodedHighWater, queueEndPosition)
            return
        }
        if mode == .speech {
            counters.concealmentEvents += 1
            openConcealmentStart = counters.playedSamples + queue.count - frames
        }
        mode = .concealing
    }

    /// Fades the concealment just decoded into comfort noise as the gap grows long.
    private mutating func fadeConcealment(frames: Int, fade: (start: Int, end: Int)) {
        let channels = queue.channels
        let fadeLength = max(fade.end - fade.start, 1)
        do {
            let pcm = decodeScratch
            for frame in 0..<frames {
                let elapsed = concealedRunSamples + frame - fade.start
                guard elapsed > 0 else { continue }
                let gain = Int32(max(fadeLength - elapsed, 0) * 32768 / fadeLength)
                for channel in 0..<channels {
                    let index = frame * channels + channel
                    pcm[index] = Int16(truncatingIfNeeded: (Int32(pcm[index]) * gain) >> 15)
                }
            }
            let start = max(concealedRunSamples - fade.start, 0)
            let noiseGain = min(Double(start) / Double(fadeLength), 1)
            if noiseGain > 0 {
                comfortNoise.render(into: pcm, frames: frames, channels: channels, level: fillLevel, gain: noiseGain, replace: false)
            }
        }
    }

    /// Conceals a few milliseconds past the gap into the overlap scratch, for the merge.
    private mutating func concealOverlap() -> Int {
        let frames = samplesPerPull / 4
        let written = (try? decoder.decode(lost: frames, into: overlapScratch)) ?? 0
        return min(max(written, 0), frames)
    }

    /// Cross-fades the first `frames` decoded frames after `at` from the concealed overlap.
    private mutating func crossFadeFromOverlap(frames: Int, at start: Int) {
        let channels = queue.channels
        for frame in 0..<frames {
            let weightIn = Int32(frame + 1) * 32768 / Int32(frames + 1)
            for channel in 0..<channels {
                let index = (start + frame) * channels + channel
                let concealed = Int32(overlapScratch[frame * channels + channel])
                let decoded = Int32(decodeScratch[index])
                decodeScratch[index] = Int16(clamping: (concealed * (32768 - weightIn) + decoded * weightIn) >> 15)
            }
        }
    }

    private mutating func playComfortNoise(frames: Int) {
        let frames = max(min(frames, decodeScratch.count / queue.channels), 1)
        comfortNoise.render(into: decodeScratch, frames: frames, channels: queue.channels, level: fillLevel, gain: 1, replace: true)
        quietRunSamples += frames
        lastQuietSample = counters.playedSamples
        queue.append(UnsafeBufferPointer(rebasing: decodeScratch[0..<(frames * queue.channels)]))
        queueEndPosition += Int64(frames)
        counters.comfortNoiseSamples += frames
    }

    /// Ends the open concealment event; one that lasted 150 ms or more and ended with the
    /// stream resuming (not a new talkspurt) is an interruption.
    mutating func closeConcealmentEvent(resumedByTalkspurt: Bool) {
        guard let start = openConcealmentStart else { return }
        openConcealmentStart = nil
        let samples = counters.playedSamples + queue.count - start
        let milliseconds = self.milliseconds(Int64(samples))
        if !resumedByTalkspurt, milliseconds >= 150 {
            counters.interruptions += 1
            counters.interruptionMilliseconds += milliseconds
        }
    }

    /// Follows the background level (the quietest recent decoded audio, rising slowly) and
    /// whether the speech pauses, by the voice activity decision on the decoded `audio`.
    private mutating func trackNoiseLevel(frames: Int, audio: UnsafeBufferPointer<Int16>) {
        let level = queue.meanAbsoluteLevel(lastFrames: frames)
        quietRunSamples = pauseDetector.analyze(audio) ? 0 : quietRunSamples + frames
        if inPause { lastQuietSample = counters.playedSamples }
        noiseLevel = min(level, noiseLevel * 1.05 + 1)
    }

    /// RFC 3389: the level (0–127, read by ``ComfortNoisePayload``) is the noise power in
    /// −dBov; returns its mean magnitude.
    static func meanMagnitude(ofNoiseLevel level: UInt8) -> Double {
        32768 * pow(10, -Double(level) / 20) * 0.8
    }

    /// How many pieces of a pause may be removed or repeated in one pull.
    static var piecesPerPullInPause: Int { 4 }

    /// The band stretching steers by in the middle of the speech: ``delayBand``, except that a
    /// delay the conversation gets for free is not shrunk (``DelayBand/keepingFreeDelay(outsideMilliseconds:targetMilliseconds:)``):
    /// each shrink is a change a listener may hear. Between talkspurts moving is free, and
    /// there ``delayBand`` holds; a fixed buffer, the baseline, keeps its own band.
    private var stretchBand: DelayBand {
        guard !estimator.isFixed, !holdsStartDelay, let outside = estimator.outsideMilliseconds else { return delayBand }
        return delayBand.keepingFreeDelay(outsideMilliseconds: outside, targetMilliseconds: estimator.targetMilliseconds)
    }

    /// Where the delay may sit without being moved, and where a move settles.
    /// A buffer that drift drains keeps its whole band higher by what it drains before the
    /// next pause (``DrainMeter``); a fixed buffer, the baseline, does not.
    var delayBand: DelayBand {
        if estimator.isFixed { return .fixed }
        let band: DelayBand = holdsStartDelay && !estimator.isStartingUp ? .leavingStart : .adaptive
        return band.raised(by: drain.anticipationMilliseconds)
    }

    /// How long the delay waits for a pause before voiced audio is stretched (ms): read speech
    /// pauses every 2–3 s; a tone or music may never pause.
    static var pauseWaitMilliseconds: Double { 3000 }

    /// Whether the start's excess over the settling point may go in the pause now: all of it
    /// goes at once, 25–30 ms. Out of silence at once; out of background noise (babble, a car:
    /// a pause of it cut short is a seam in the noise) only in a pause the voice activity
    /// decision has heard no speech in for ``startLeavingPauseMilliseconds`` (a break between
    /// utterances, not a breath within one), or in any pause once
    /// ``startLeavingPatienceMilliseconds`` of the call have played (speech without such breaks
    /// keeps no start for good).
    private var startMayLeave: Bool {
        pauseDetector.noiseFloorDBov < Self.silentPauseDBov
            || quietRunSamples >= startLeavingPauseSamples
            || counters.playedSamples >= startLeavingPatienceSamples
    }

    /// Below this noise floor (the voice activity decision's, dBov) the background is silence
    /// (``startMayLeave``). The buffer's own fill level was no measure: it rises from silence
    /// at 5 % a packet, and the babble under the held-out scot-m-babble20 still counted as
    /// silence at its first pause (its start went there: −2.8 R).
    static var silentPauseDBov: Double { -70 }

    /// How long a pause the start's excess waits for, milliseconds of no speech (after the voice
    /// activity decision's 150 ms hangover). Tuned on the held-out recordings of
    /// `make_heldout_speech.sh` over `clean` (mean R_conv of the eight: 89.55 dropping the
    /// start at the first pause, 90.03 at 250 ms, 90.07 at 300 ms, 90.32 for a fixed buffer at the
    /// network's transit): a drop in a shorter pause is charged by PESQ, in clean speech too;
    /// at 400 ms scot-m never paused that long in its first 20 s.
    static var startLeavingPauseMilliseconds: Double { 250 }

    /// After this much playout, milliseconds, the start's excess goes in any pause (5 s cost
    /// scot-m 2.7 R on the held-out speech: its first long pause comes at 6.8 s).
    static var startLeavingPatienceMilliseconds: Double { 10_000 }

    /// Whether the audio decoded last is a pause: comfort noise, or audio the voice activity
    /// decision (``NoiseFloorVoiceActivityDetector``: near the noise floor for its 150 ms
    /// hangover, between phrases, not the closure of a consonant) calls no speech.
    private var inPause: Bool { quietRunSamples > 0 }

    /// Removes or repeats a pitch period, or a piece of a pause, when the delay is off target;
    /// returns what it did.
    private mutating func stretchIfNeeded() -> PlayoutDecision.Kind? {
        // A fixed buffer stretches too, to hold its delay against clock drift (``DelayBand/fixed``).
        guard mode == .speech else {
            stretchState = .none
            return nil
        }
        // Once the network needs more than the start, the start is no longer held.
        if estimator.targetMilliseconds > estimator.initialMilliseconds { holdsStartDelay = false }
        let error = currentDelayMilliseconds - steeringTargetMilliseconds
        let band = stretchBand
        switch stretchState {
        // Below the target costs late packets, above it only delay (``DelayBand``).
        case .accelerating where error <= band.settle:
            stretchState = .none
            if !estimator.isStartingUp { holdsStartDelay = false }
        case .decelerating where error >= band.settle:
            stretchState = .none
        case .none where error > band.shrinkAbove: stretchState = .accelerating
        case .none where error < band.growBelow: stretchState = .decelerating
        default: break
        }
        guard stretchState != .none else { return nil }
        // The delay moves in pauses (what the voice activity decision calls no speech, over
        // whatever background noise, between phrases): it makes no audible seam, and a
        // listener (or PESQ) hears each utterance whole. Voiced audio is stretched only when no pause has come for 3 s (a tone, music,
        // or drift in endless speech), at most one seam per 40 ms of audio. (A stall needs no
        // stretching: the playout went on concealing, so the packets queued behind it are
        // already late when they come.) A short silence within a word is no pause: stretching
        // it warps the word.
        let pauseOverdue = counters.playedSamples - lastQuietSample > pauseWaitSamples
        let voicedAllowed = pauseOverdue && counters.playedSamples >= nextStretchAllowed
        guard voicedAllowed || inPause else { return nil }
        if holdsStartDelay, stretchState == .accelerating, !voicedAllowed, !startMayLeave { return nil }
        let direction: TimeStretcher.Direction = stretchState == .accelerating ? .shorten : .lengthen
        // A pause takes several pieces per pull, so that even a large move fits in one pause.
        var remaining = error
        var total = 0
        for _ in 0..<(voicedAllowed ? 1 : Self.piecesPerPullInPause) {
            let change = stretchOnce(direction, error: remaining, settle: band.settle, voicedAllowed: voicedAllowed)
            guard change != 0 else { break }
            total += change
            remaining += milliseconds(Int64(change))
            if direction == .shorten ? remaining <= band.settle : remaining >= band.settle { break }
        }
        guard total != 0 else { return nil }
        if voicedAllowed { nextStretchAllowed = counters.playedSamples + 4 * samplesPerPull }
        if total > 0 {
            counters.insertedSamples += total
            return .decelerate
        }
        counters.removedSamples -= total
        return .accelerate
    }

    /// Removes or repeats one piece (a pitch period, or a piece of a pause) towards the
    /// settling point `settle` milliseconds above the target, the delay being `error` above it;
    /// returns the frames inserted (positive) or removed (negative).
    private mutating func stretchOnce(_ direction: TimeStretcher.Direction, error: Double, settle: Double, voicedAllowed: Bool) -> Int {
        // Look ahead into packets that are here (never conceal just to stretch).
        while queue.count < samplesPerPull + stretcher.fullSearchFrames, let next = store.earliest(),
            store.position(next) == queueEndPosition
        {
            _ = decodeStored(next)
        }
        // Speech resuming in the look-ahead ends the pause.
        guard voicedAllowed || inPause else { return 0 }
        let live = queue.count
        let region = queue.liveRegion(extraFrames: direction == .lengthen ? stretcher.maximumPeriod : 0)
        // Never overshoot the settling point much: a removed piece is at most the excess over
        // it; an inserted piece of a pause (stretched by the longest piece allowed) at most the
        // shortfall to it and 1 ms.
        let longest =
            switch direction {
            case .shorten: Int(mediaPosition(ofMilliseconds: error - settle + 1))
            case .lengthen: voicedAllowed ? stretcher.maximumPeriod : Int(mediaPosition(ofMilliseconds: settle + 1 - error))
            }
        let change = stretcher.stretch(
            direction, region: region, liveFrames: live, keepingFrames: samplesPerPull, longestFrames: longest,
            pause: inPause
        )
        queue.commitEdit(change: change)
        return change
    }
}
