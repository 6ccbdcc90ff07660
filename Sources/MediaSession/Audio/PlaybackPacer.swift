import AudioDevice

/// Paces a session's own audio thread by its playback device's clock rather than the
/// monotonic clock's 10 ms, and measures that clock. A pure value: the audio thread reads the
/// device's queue just before each write and asks for the next period.
///
/// A sound card plays at its own crystal's rate, tens to hundreds of parts per million off the
/// media clock. Ticked at exactly 10 ms, a faster card drains its queue until it underruns and
/// a slower one fills it until writes block. So each tick waits for the device's period,
/// corrected by a tenth of the queue's distance from ``headroomMilliseconds`` (a proportional
/// loop: the queue settles within a few frames of the headroom whatever the drift). The jitter
/// buffer, pulled once per tick, then sees the device's rate against the arrivals and absorbs
/// the difference by its stretching. The ``estimator`` measures the device's rate for the
/// session's statistics. A device that plays instantly (its queue reads empty: ALSA's `null`
/// and `file` plugins, which have no clock) is ticked at the nominal 10 ms.
struct PlaybackPacer {
    /// What is kept queued in the device before each write: 20 ms, so that a tick 10 ms late
    /// (a scheduling hiccup) still finds 10 ms queued, and one 20 ms late does not underrun either.
    static let headroomMilliseconds = 20
    /// The share of the queue's distance from the headroom corrected at each tick.
    static let correctionGain = 0.1
    /// The nominal period.
    let periodNanoseconds: Int64
    let sampleRate: Int
    /// ``headroomMilliseconds`` in frames.
    let headroomFrames: Int
    /// The device's rate against the monotonic clock.
    private(set) var estimator: DeviceClockEstimator
    /// The device's underrun count at the last reading; a new one restarts the estimate.
    private(set) var underruns = 0
    /// How long the next tick should come after this one.
    private(set) var nextPeriodNanoseconds: Int64

    /// A pacer for a playback device at `sampleRate`, ticked every `periodNanoseconds` nominally.
    init(sampleRate: Int, periodNanoseconds: Int64) {
        self.sampleRate = sampleRate
        self.periodNanoseconds = periodNanoseconds
        headroomFrames = sampleRate * Self.headroomMilliseconds / 1000
        estimator = DeviceClockEstimator(nominalSampleRate: sampleRate)
        nextPeriodNanoseconds = periodNanoseconds
    }

    /// Takes the device's position read at `monotonicNanoseconds`, just before a write, when
    /// `writtenFrames` frames had been written to it since it opened (the headroom included).
    mutating func record(_ position: AudioPlaybackPosition, writtenFrames: Int64, monotonicNanoseconds: Int64) {
        if position.underruns != underruns {
            underruns = position.underruns
            estimator.reset()
        }
        guard position.queuedFrames > 0 else {
            nextPeriodNanoseconds = periodNanoseconds
            return
        }
        estimator.record(monotonicNanoseconds: monotonicNanoseconds, deviceFrames: writtenFrames - Int64(position.queuedFrames))
        let excessNanoseconds = Double(position.queuedFrames - headroomFrames) * 1e9 / Double(sampleRate)
        let period = Double(periodNanoseconds) + Self.correctionGain * excessNanoseconds
        nextPeriodNanoseconds = Int64(min(max(period, Double(periodNanoseconds) / 2), Double(periodNanoseconds) * 3 / 2))
    }
}
