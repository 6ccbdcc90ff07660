/// A generated trace together with the ground truth of the impairments that shaped it.
public struct GeneratedTrace: Sendable {
    /// The packets, as they would be written to a trace CSV.
    public var trace: NetworkTrace
    /// Each path stall as it happened, in receiver milliseconds (start ..< end).
    public var stalls: [Range<Double>]
    /// The sequence numbers that start a talkspurt (the RTP marker bit is set on them).
    public var talkspurtStarts: Set<UInt64>
}

/// Generates a reproducible network trace from a ``NetworkProfile`` and a seed.
///
/// The sender emits one packet per frame on its own clock (which may drift against the
/// receiver's), pausing in the silences of the talkspurt model; each packet is lost by the
/// Gilbert–Elliott chain or delayed by the base delay plus jitter (plus the reorder delay, for
/// the packets picked to be reordered); a packet whose arrival falls in a stall is held until
/// the stall ends and released back to back with the others held; duplicates follow their
/// original. A packet sent while the queue still drains joins its end. Times are rounded to whole microseconds, so a CSV round trip is exact.
public struct TraceGenerator: Sendable {
    /// The path and stream being simulated.
    public var profile: NetworkProfile

    /// A generator for `profile`.
    public init(profile: NetworkProfile) {
        self.profile = profile
    }

    /// The trace for `seed`: the same seed always gives the same trace.
    public func generate(seed: UInt64) -> GeneratedTrace {
        var random = SeededGenerator(seed: seed)
        let firstSequence = UInt64(random.next() & 0xFFFF)
        let firstTimestamp = UInt64(random.next() & 0xFFFF_FFFF)
        let stalls = drawStalls(using: &random)
        var loss = GilbertElliottState(model: profile.loss)
        var speech = SpeechActivity(model: profile.talkspurts, random: &random)
        let senderTick = profile.frameMilliseconds / (1 + profile.senderClockDriftPPM * 1e-6)
        let frameCount = Int(profile.durationSeconds * 1000 / profile.frameMilliseconds)

        var rows: [TracePacket] = []
        var talkspurtStarts = Set<UInt64>()
        var sequence = firstSequence
        var backlogDrainedAt = -Double.infinity
        let spacing = profile.spikes?.backToBackSpacingMilliseconds ?? 0
        for frame in 0..<frameCount {
            let frameStartSender = Double(frame) * profile.frameMilliseconds
            guard let startsTalkspurt = speech.isTalking(atMilliseconds: frameStartSender, using: &random) else {
                continue
            }
            if startsTalkspurt { talkspurtStarts.insert(sequence) }
            let sendTime = Double(frame) * senderTick
            var arrival: Double?
            if !loss.nextPacketIsLost(using: &random) {
                var delay = profile.baseDelayMilliseconds + profile.jitter.sample(using: &random)
                if random.nextBernoulli(profile.reorderProbability) { delay += profile.reorderDelayMilliseconds }
                var time = sendTime + max(delay, 0)
                // A stalled path queues packets; the queue drains back to back, first in first out.
                if let stall = stalls.first(where: { $0.contains(time) }) {
                    time = max(stall.upperBound, backlogDrainedAt + spacing)
                    backlogDrainedAt = time
                } else if time < backlogDrainedAt + spacing {
                    time = backlogDrainedAt + spacing
                    backlogDrainedAt = time
                }
                arrival = time
            }
            let packet = TracePacket(
                sequenceNumber: sequence,
                rtpTimestamp: firstTimestamp + UInt64(frame * profile.samplesPerFrame),
                sendMilliseconds: Self.microsecondRounded(sendTime),
                arrivalMilliseconds: arrival.map(Self.microsecondRounded),
                payloadBytes: profile.payloadBytes
            )
            rows.append(packet)
            if let arrival, random.nextBernoulli(profile.duplicateProbability) {
                var duplicate = packet
                let lag = random.nextUnitInterval() * profile.duplicateLagMilliseconds
                duplicate.arrivalMilliseconds = Self.microsecondRounded(arrival + lag)
                rows.append(duplicate)
            }
            sequence += 1
        }
        return GeneratedTrace(trace: NetworkTrace(packets: rows), stalls: stalls, talkspurtStarts: talkspurtStarts)
    }

    private func drawStalls(using random: inout SeededGenerator) -> [Range<Double>] {
        guard let spikes = profile.spikes, spikes.intervalSeconds > 0 else { return [] }
        var stalls: [Range<Double>] = []
        var start = spikes.firstStartSeconds * 1000
        while start < profile.durationSeconds * 1000 {
            let span = spikes.stallMilliseconds
            let length = span.lowerBound + random.nextUnitInterval() * (span.upperBound - span.lowerBound)
            stalls.append(Self.microsecondRounded(start)..<Self.microsecondRounded(start + length))
            start += spikes.intervalSeconds * 1000
        }
        return stalls
    }

    private static func microsecondRounded(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }
}

/// The on/off state of the talkspurt model as the sender's clock advances.
private struct SpeechActivity {
    let model: TalkspurtModel?
    var talking = true
    var stateEndsMilliseconds: Double
    var previousFrameWasTalking = false

    init(model: TalkspurtModel?, random: inout SeededGenerator) {
        self.model = model
        stateEndsMilliseconds = model.map { random.nextExponential(mean: $0.meanTalkSeconds * 1000) } ?? .infinity
    }

    /// `nil` during a pause; otherwise whether this frame starts a talkspurt.
    mutating func isTalking(atMilliseconds time: Double, using random: inout SeededGenerator) -> Bool? {
        if let model {
            while time >= stateEndsMilliseconds {
                talking.toggle()
                let mean = talking ? model.meanTalkSeconds : model.meanPauseSeconds
                stateEndsMilliseconds += random.nextExponential(mean: mean * 1000)
            }
        }
        defer { previousFrameWasTalking = talking }
        return talking ? !previousFrameWasTalking : nil
    }
}
