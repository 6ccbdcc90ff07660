#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the stream has shown of how its sender fills its pauses.
enum SenderPauses {
    /// Nothing yet: a gap is filled at the level a loss fades into.
    case unknown
    /// The sender sends comfort-noise packets (RFC 3389): their level fills its pauses.
    case comfortNoisePackets
    /// The sender stops sending in its pauses (DTX) and sends no comfort noise: a talkspurt
    /// resumed with the sequence number that followed the last packet while the timestamp
    /// jumped (RFC 3551 §4.1). Its gaps fill at the background level of its audio.
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
    /// faded out over the next two, into the background. Otherwise the configured fade.
    func concealmentFade(nothingBehind: Bool) -> (start: Int, end: Int) {
        guard nothingBehind, senderPauses == .silentWithoutComfortNoise else { return (fadeStartSamples, fadeEndSamples) }
        return (samplesPerPull, 3 * samplesPerPull)
    }

    /// The mean magnitude of what fills a gap once concealment fades out, and of comfort noise:
    /// the background of the decoded audio (``BackgroundLevel``) for a sender known to pause
    /// without comfort noise, whose gaps are mostly its silences; otherwise the level a loss
    /// fades into (``noiseLevel``: the quietest recent decoded audio, rising 5 % a packet, or
    /// the level of the last comfort-noise packet).
    var fillLevel: Double {
        senderPauses == .silentWithoutComfortNoise ? background.meanMagnitude : noiseLevel
    }
}

/// The background level of the decoded audio: the quietest of its frames (their mean
/// magnitude), allowed to rise ``riseDecibelsPerSecond`` per second of decoded audio so that it
/// follows a background that grows louder. Digital silence for a clean talker whose pauses are
/// silent, the quiet moments of the noise for speech over noise. The loss fill's level
/// (``JitterBuffer/noiseLevel``) rises 21 dB a second instead: within a talkspurt of a DTX
/// sender, which never sends its pauses, that reached about 20 dB below the speech. (The voice
/// activity decision's noise floor, a minimum of a 100 ms smoothed power over 2 s, is no
/// background here: a talkspurt's short pauses hardly move it.)
struct BackgroundLevel {
    /// How fast the level may rise, in dB per second of decoded audio.
    static var riseDecibelsPerSecond: Double { 1 }

    /// The level as a mean magnitude; 0 before any audio.
    private(set) var meanMagnitude = 0.0
    private var hasMeasured = false

    /// Takes the mean magnitude `level` of `samples` more decoded samples at `sampleRate`.
    mutating func follow(level: Double, samples: Int, sampleRate: Int) {
        guard hasMeasured else {
            meanMagnitude = level
            hasMeasured = true
            return
        }
        let rise = pow(10, Self.riseDecibelsPerSecond * Double(samples) / Double(max(sampleRate, 1)) / 20)
        // From digital silence it rises from a magnitude of 1 (the smallest step of 16-bit audio).
        meanMagnitude = min(level, max(meanMagnitude, 1) * rise)
    }
}
