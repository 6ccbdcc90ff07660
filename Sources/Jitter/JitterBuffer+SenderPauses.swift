/// What the stream has shown of how its sender fills its pauses.
enum SenderPauses {
    /// Nothing yet: a gap is filled at the level a loss fades into.
    case unknown
    /// The sender sends comfort-noise packets (RFC 3389): their level fills its pauses.
    case comfortNoisePackets
    /// The sender stops sending in its pauses (DTX) and sends no comfort noise: a talkspurt
    /// resumed with the sequence number that followed the last packet while the timestamp
    /// jumped (RFC 3551 §4.1). Its gaps are silence.
    case silentWithoutComfortNoise
}

extension JitterBuffer {
    /// Whether a packet resumes the stream after its sender paused: its sequence number follows
    /// the last decoded packet's (nothing was lost) while its media starts more than half a
    /// frame after the last decoded audio (the sender sent nothing for that media time).
    func resumesAfterSenderPause(sequence: UInt64, position: Int64) -> Bool {
        guard let lastDecodedSequence, decodedHighWater != .min else { return false }
        return sequence == lastDecodedSequence + 1 && position - decodedHighWater > Int64(frameSamples / 2)
    }

    /// Records that the gap now ending was the sender's pause, not a loss: the stream is known
    /// to pause without comfort noise (unless it sends comfort-noise packets), and what was
    /// concealed over the gap while it was unresolved counts as comfort noise, not concealment.
    mutating func recordSenderPause() {
        if senderPauses == .unknown { senderPauses = .silentWithoutComfortNoise }
        guard openConcealmentStart != nil else { return }
        counters.concealedSamples -= concealedRunSamples
        counters.comfortNoiseSamples += concealedRunSamples
        counters.concealmentEvents -= 1
        concealedRunSamples = 0
    }

    /// Where concealment of the gap at the end of the queue stops playing at full level and where
    /// it has faded out (samples into the gap). A gap with nothing stored behind it, from a
    /// sender known to pause without comfort noise, is most likely its pause (a lost packet
    /// mostly has the next one behind it by the time its gap plays): one pull at full level,
    /// faded out over the next two, into silence. Otherwise the configured fade.
    func concealmentFade(nothingBehind: Bool) -> (start: Int, end: Int) {
        guard nothingBehind, senderPauses == .silentWithoutComfortNoise else { return (fadeStartSamples, fadeEndSamples) }
        return (samplesPerPull, 3 * samplesPerPull)
    }

    /// The mean magnitude of what fills a gap once concealment fades out, and of comfort noise:
    /// silence for a sender known to pause without comfort noise (what it sent for its pauses:
    /// nothing; it sends no level to render), otherwise the level a loss fades into
    /// (``noiseLevel``: the quietest recent decoded audio, rising 5 % a packet, or the level of
    /// the last comfort-noise packet). That level climbs within a DTX sender's talkspurts, which
    /// never carry its pauses, to about 20 dB below the speech.
    var fillLevel: Double {
        senderPauses == .silentWithoutComfortNoise ? 0 : noiseLevel
    }
}
