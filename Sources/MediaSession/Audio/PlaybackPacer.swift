import AudioDevice

/// Paces a session's own audio thread by its playback device's clock rather than the
/// monotonic clock's 10 ms, measures that clock, and keeps as much queued in the device as the
/// machine's scheduling needs. A pure value: the audio thread reads the device's queue just
/// before each write and asks for the next period.
///
/// A sound card plays at its own crystal's rate, tens to hundreds of parts per million off the
/// media clock. Ticked at exactly 10 ms, a faster card drains its queue until it underruns and
/// a slower one fills it until writes block. So each tick waits for the device's period,
/// corrected by a tenth of the queue's distance from the headroom (a proportional loop: the
/// queue settles within a few frames of the headroom whatever the drift). The jitter buffer,
/// pulled once per tick, then sees the device's rate against the arrivals and absorbs the
/// difference by its stretching. The ``estimator`` measures the device's rate for the
/// session's statistics. A device that plays instantly (its queue reads empty: ALSA's `null`
/// and `file` plugins, which have no clock) is ticked at the nominal 10 ms.
///
/// The headroom adapts to the machine: each tick measures how much of the queue the wait
/// since the last one ate beyond the plan (a wake-up the scheduler delayed), and the headroom
/// covers the largest such lateness of the recent past plus a margin, from
/// ``minimumHeadroomMilliseconds`` up to ``maximumHeadroomMilliseconds``, falling back slowly
/// once the machine is quiet again. An underrun is classified: after a wake-up later than the
/// queue the schedule left (the thread was not scheduled: ``underrunsAfterLateWakeUps``), or on
/// schedule (the pacing or the clocks failed: the rest of ``underruns``). After one the device
/// starts again from an empty queue, which ``primingFrames`` of silence refill to the headroom,
/// so that the jitter buffer's timeline does not pay for the gap a second time.
struct PlaybackPacer {
    /// The least kept queued before each write: a tick 10 ms late (a scheduling hiccup) still
    /// finds 10 ms queued, and one 20 ms late does not underrun either.
    static let minimumHeadroomMilliseconds = 20.0
    /// The most kept queued: a device buffer of 8 periods (the session opens ALSA so) holds it
    /// and one period written on top.
    static let maximumHeadroomMilliseconds = 50.0
    /// What the headroom keeps beyond the latest wake-up lateness it covers.
    static let headroomMarginMilliseconds = 5.0
    /// How fast the lateness the headroom covers is forgotten, in milliseconds per second: a
    /// load that delayed the thread 30 ms keeps the headroom up for about two minutes.
    static let latenessDecayMillisecondsPerSecond = 0.25
    /// The share of the queue's distance from the headroom corrected at each tick.
    static let correctionGain = 0.1
    /// The nominal period.
    let periodNanoseconds: Int64
    let sampleRate: Int
    /// What is kept queued in the device before each write now, in frames.
    private(set) var headroomFrames: Int
    /// The device's rate against the monotonic clock.
    private(set) var estimator: DeviceClockEstimator
    /// The device's underrun count at the last reading; a new one restarts the estimate.
    private(set) var underruns = 0
    /// Underruns that followed a wake-up later than the queue the schedule left.
    private(set) var underrunsAfterLateWakeUps = 0
    /// Silence to write before this tick's audio: the headroom again after an underrun.
    private(set) var primingFrames = 0
    /// How long the next tick should come after this one.
    private(set) var nextPeriodNanoseconds: Int64
    /// The last reading: when, the queue then, and the frames written by then.
    private var last: (nanoseconds: Int64, queuedFrames: Int, writtenFrames: Int64)?
    /// The largest lateness of the recent past, decaying (milliseconds).
    private var heldLatenessMilliseconds = 0.0

    /// A pacer for a playback device at `sampleRate`, ticked every `periodNanoseconds` nominally.
    init(sampleRate: Int, periodNanoseconds: Int64) {
        self.sampleRate = sampleRate
        self.periodNanoseconds = periodNanoseconds
        headroomFrames = Int(Double(sampleRate) * Self.minimumHeadroomMilliseconds / 1000)
        estimator = DeviceClockEstimator(nominalSampleRate: sampleRate)
        nextPeriodNanoseconds = periodNanoseconds
    }

    /// The headroom now, in milliseconds.
    var headroomMilliseconds: Double { Double(headroomFrames) * 1000 / Double(sampleRate) }

    /// Takes the device's position read at `monotonicNanoseconds`, just before a write, when
    /// `writtenFrames` frames had been written to it since it opened (the headroom included).
    mutating func record(_ position: AudioPlaybackPosition, writtenFrames: Int64, monotonicNanoseconds: Int64) {
        primingFrames = 0
        let underran = position.underruns != underruns
        if underran {
            underruns = position.underruns
            estimator.reset()
        }
        guard position.queuedFrames > 0 || underran else {
            nextPeriodNanoseconds = periodNanoseconds
            last = nil
            return
        }
        if let last { measureLateness(since: last, writtenFrames: writtenFrames, now: monotonicNanoseconds, underran: underran) }
        last = (monotonicNanoseconds, position.queuedFrames, writtenFrames)
        if underran {
            // The device waits for a write to start again: give it the headroom first.
            primingFrames = headroomFrames
            last?.queuedFrames = headroomFrames
            last?.writtenFrames += Int64(headroomFrames)
            nextPeriodNanoseconds = periodNanoseconds
            return
        }
        estimator.record(monotonicNanoseconds: monotonicNanoseconds, deviceFrames: writtenFrames - Int64(position.queuedFrames))
        let excessNanoseconds = Double(position.queuedFrames - headroomFrames) * 1e9 / Double(sampleRate)
        let period = Double(periodNanoseconds) + Self.correctionGain * excessNanoseconds
        nextPeriodNanoseconds = Int64(min(max(period, Double(periodNanoseconds) / 2), Double(periodNanoseconds) * 3 / 2))
    }

    /// From the reading before: how much later than planned this tick came (the queue it
    /// would have found on time, less the one it found had it not run dry), which the headroom
    /// then covers; and whether an underrun since followed such a wake-up.
    private mutating func measureLateness(
        since last: (nanoseconds: Int64, queuedFrames: Int, writtenFrames: Int64), writtenFrames: Int64, now: Int64, underran: Bool
    ) {
        let rate = estimator.sampleRate ?? Double(sampleRate)
        let written = Double(last.queuedFrames) + Double(writtenFrames - last.writtenFrames)
        let planned = written - Double(nextPeriodNanoseconds) / 1e9 * rate
        let found = written - Double(now - last.nanoseconds) / 1e9 * rate
        let latenessMilliseconds = max(planned - found, 0) * 1000 / Double(sampleRate)
        // On time, the schedule left part of a period queued at least: then the thread was late.
        if underran, planned > Double(sampleRate) / 1000 { underrunsAfterLateWakeUps += 1 }
        let elapsedSeconds = Double(now - last.nanoseconds) / 1e9
        heldLatenessMilliseconds = max(latenessMilliseconds, heldLatenessMilliseconds - elapsedSeconds * Self.latenessDecayMillisecondsPerSecond)
        let headroom = min(
            max(heldLatenessMilliseconds + Self.headroomMarginMilliseconds, Self.minimumHeadroomMilliseconds), Self.maximumHeadroomMilliseconds)
        headroomFrames = Int((Double(sampleRate) * headroom / 1000).rounded(.up))
    }
}
