/// When delay spikes happen: a stall of the path during which nothing arrives, after which the
/// queued packets arrive back to back.
public struct SpikeSchedule: Sendable, Equatable {
    /// When the first stall starts, in seconds from the start of the trace.
    public var firstStartSeconds: Double
    /// The time from one stall's start to the next's, in seconds.
    public var intervalSeconds: Double
    /// The range a stall's length is drawn from (uniformly), in milliseconds.
    public var stallMilliseconds: ClosedRange<Double>
    /// The spacing of the packets released at the end of a stall, in milliseconds.
    public var backToBackSpacingMilliseconds: Double

    /// A schedule of stalls starting at `firstStartSeconds` and every `intervalSeconds` after.
    public init(
        firstStartSeconds: Double,
        intervalSeconds: Double,
        stallMilliseconds: ClosedRange<Double> = 300...1500,
        backToBackSpacingMilliseconds: Double = 0.1
    ) {
        self.firstStartSeconds = firstStartSeconds
        self.intervalSeconds = intervalSeconds
        self.stallMilliseconds = stallMilliseconds
        self.backToBackSpacingMilliseconds = backToBackSpacingMilliseconds
    }
}

/// Speech activity with discontinuous transmission: talkspurts and pauses of exponentially
/// distributed length; no packet is sent during a pause, and the first packet of a talkspurt
/// carries the RTP marker bit.
public struct TalkspurtModel: Sendable, Equatable {
    /// The mean talkspurt length in seconds.
    public var meanTalkSeconds: Double
    /// The mean pause length in seconds.
    public var meanPauseSeconds: Double

    /// A talkspurt model; the defaults are the ITU-T P.59 conversational-speech means.
    public init(meanTalkSeconds: Double = 1.004, meanPauseSeconds: Double = 1.587) {
        self.meanTalkSeconds = meanTalkSeconds
        self.meanPauseSeconds = meanPauseSeconds
    }
}

/// Every impairment of a simulated network path, and the stream sent over it.
public struct NetworkProfile: Sendable, Equatable {
    /// The trace length in seconds.
    public var durationSeconds: Double = 60
    /// The packet interval (frame length) in milliseconds.
    public var frameMilliseconds: Double = 20
    /// The RTP clock rate in Hz.
    public var clockRate: Int = 8000
    /// The payload size of every packet in bytes.
    public var payloadBytes: Int = 160
    /// The fixed one-way delay in milliseconds.
    public var baseDelayMilliseconds: Double = 40
    /// The extra per-packet delay.
    public var jitter: JitterDistribution = .none
    /// Packet loss.
    public var loss: GilbertElliottLoss = .none
    /// Path stalls; `nil` for none.
    public var spikes: SpikeSchedule?
    /// How much faster the sender's clock runs than the receiver's, in parts per million
    /// (negative: slower). A fast sender sends more packets per receiver second.
    public var senderClockDriftPPM: Double = 0
    /// The probability that a packet is held back by ``reorderDelayMilliseconds`` more than its
    /// jitter, so that it arrives after packets sent later.
    public var reorderProbability: Double = 0
    /// The extra delay of a reordered packet in milliseconds.
    public var reorderDelayMilliseconds: Double = 0
    /// The probability that a packet arrives twice.
    public var duplicateProbability: Double = 0
    /// The largest lag of a duplicate behind its original, in milliseconds (uniform from 0).
    public var duplicateLagMilliseconds: Double = 20
    /// Discontinuous transmission; `nil` for continuous sending.
    public var talkspurts: TalkspurtModel?

    /// A clean path: 60 s of 20 ms PCMU packets at 40 ms fixed delay.
    public init() {}

    /// RTP timestamp units in one frame.
    public var samplesPerFrame: Int {
        Int((frameMilliseconds * Double(clockRate) / 1000).rounded())
    }
}
