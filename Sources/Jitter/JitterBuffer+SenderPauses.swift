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

    /// The mean magnitude of what fills a gap once concealment fades out, and of comfort noise:
    /// the background of the decoded audio (``BackgroundLevel``) for a sender known to pause
    /// without comfort noise, whose gaps are mostly its silences; otherwise the level a loss
    /// fades into (``noiseLevel``: the quietest recent decoded audio, or the level of the last
    /// comfort-noise packet).
    var fillLevel: Double {
        senderPauses == .silentWithoutComfortNoise ? background.meanMagnitude : noiseLevel
    }
}

/// The background level of the decoded audio: the lowest noise floor the voice activity
/// decision has measured in its pauses (near digital silence for a clean talker, the noise for
/// speech over noise), allowed to rise ``riseDecibelsPerSecond`` per second of decoded audio so
/// that it follows a background that grows louder. A DTX sender's talkspurts are often shorter
/// than the detector's 2 s window, which then reads the quietest syllables; the lowest reading
/// over several windows is the pauses'.
struct BackgroundLevel {
    /// How fast the level may rise, in dB per second of decoded audio.
    static var riseDecibelsPerSecond: Double { 1 }

    /// The level in dBov, `-infinity` until the detector has measured a floor.
    private(set) var decibels = -Double.infinity
    private var analyzedSamples = 0

    /// Takes the detector's floor after it analysed `samples` more samples at `sampleRate`.
    mutating func follow(floorDBov: Double, samples: Int, sampleRate: Int) {
        analyzedSamples += samples
        // The detector reads digital silence until its first sub-window (250 ms) is complete.
        guard analyzedSamples >= sampleRate / 2 else { return }
        let rise = Self.riseDecibelsPerSecond * Double(samples) / Double(max(sampleRate, 1))
        decibels = decibels == -.infinity ? floorDBov : min(floorDBov, decibels + rise)
    }

    /// The mean magnitude of noise at the level (Gaussian noise has 0.8 of its RMS as its mean
    /// magnitude); 0 before any measurement.
    var meanMagnitude: Double {
        decibels == -.infinity ? 0 : 32768 * pow(10, decibels / 20) * 0.8
    }
}
