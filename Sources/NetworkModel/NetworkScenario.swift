/// The named network scenarios used by the tests, `mediabench simulate --scenario` and
/// `bench jitter`. All send 20 ms PCMU frames (8000 Hz, 160-byte payloads) for 60 s.
public enum NetworkScenario: String, Sendable, CaseIterable {
    /// 40 ms base delay, no jitter, no loss.
    case clean
    /// 40 ms base delay; gamma jitter of mean 20 ms, sd 10 ms; 1 % random loss.
    case moderateJitter = "moderate-jitter"
    /// 60 ms base delay; Pareto jitter of mean 40 ms, sd 40 ms (a heavy tail); 2 % random loss.
    case heavyJitter = "heavy-jitter"
    /// 40 ms base delay; normal jitter sd 5 ms; Gilbert–Elliott loss p = 0.02, r = 0.25,
    /// all lost in the bad state, none in the good: 7.4 % loss in bursts of 4 on average.
    case burstyLoss = "bursty-loss"
    /// 40 ms base delay; normal jitter sd 5 ms; a stall of 300–1500 ms every 10 s from 5 s.
    case spikes
    /// 40 ms base delay; normal jitter sd 5 ms; the sender's clock 1000 ppm fast.
    case driftFast = "drift-fast"
    /// 40 ms base delay; normal jitter sd 5 ms; the sender's clock 1000 ppm slow.
    case driftSlow = "drift-slow"
    /// 40 ms base delay; normal jitter sd 5 ms; 10 % of packets held back 50 ms more.
    case reordering
    /// 40 ms base delay; normal jitter sd 5 ms; talkspurts and pauses (ITU-T P.59 means) with
    /// DTX; 2 % duplicates.
    case dtx

    /// The scenario's impairments.
    public var profile: NetworkProfile {
        var profile = NetworkProfile()
        let lightJitter = JitterDistribution.normal(meanMilliseconds: 0, standardDeviationMilliseconds: 5)
        switch self {
        case .clean:
            break
        case .moderateJitter:
            profile.jitter = .gamma(meanMilliseconds: 20, standardDeviationMilliseconds: 10)
            profile.loss = .random(0.01)
        case .heavyJitter:
            profile.baseDelayMilliseconds = 60
            profile.jitter = .pareto(meanMilliseconds: 40, standardDeviationMilliseconds: 40)
            profile.loss = .random(0.02)
        case .burstyLoss:
            profile.jitter = lightJitter
            profile.loss = GilbertElliottLoss(goodToBad: 0.02, badToGood: 0.25)
        case .spikes:
            profile.jitter = lightJitter
            profile.spikes = SpikeSchedule(firstStartSeconds: 5, intervalSeconds: 10)
        case .driftFast:
            profile.jitter = lightJitter
            profile.senderClockDriftPPM = 1000
        case .driftSlow:
            profile.jitter = lightJitter
            profile.senderClockDriftPPM = -1000
        case .reordering:
            profile.jitter = lightJitter
            profile.reorderProbability = 0.1
            profile.reorderDelayMilliseconds = 50
        case .dtx:
            profile.jitter = lightJitter
            profile.talkspurts = TalkspurtModel()
            profile.duplicateProbability = 0.02
        }
        return profile
    }

    /// The scenario's trace for `seed`.
    public func generate(seed: UInt64 = 1) -> GeneratedTrace {
        TraceGenerator(profile: profile).generate(seed: seed)
    }
}
