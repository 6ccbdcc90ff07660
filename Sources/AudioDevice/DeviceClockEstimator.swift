/// Measures a sound card's sample clock against the monotonic clock: a least-squares line
/// through (monotonic time, frames the device has played or captured) readings, whose slope is
/// the device's real sample rate. A card's crystal is off by tens to hundreds of parts per
/// million: over a call that drifts by whole periods, which something (the jitter buffer's
/// stretching) must absorb. A pure value: the caller reads the device and the clock.
///
/// A reading can only be late, never early: the thread that reads the device and then the
/// clock may lose the CPU in between, and on a loaded machine it does, for milliseconds. So
/// the line does not go through every reading but through the lower envelope of the time a
/// frame count was read at: of the readings within each ``bucketSeconds`` of the device's
/// frames, only the earliest (the one whose time is least beyond what its frame count says)
/// counts. (Spans of frames, not of time: the frame count never goes back, a late time can
/// reach into the next span.) Late wake-ups then
/// move nothing, however their number changes over the call.
///
/// Readings after an xrun do not continue the line (the device's count stopped while its
/// clock went on): call ``reset()`` then.
public struct DeviceClockEstimator: Sendable {
    /// The rate the device was opened at, frames per second.
    public let nominalSampleRate: Double
    /// Readings are grouped by spans of this many seconds of frames at the nominal rate; the
    /// earliest-timed of each is a point of the line.
    public static let bucketSeconds = 0.25
    /// The first reading, the origin of the sums (keeps them small).
    private var origin: (nanoseconds: Int64, frames: Int64)?
    /// The best reading of the span being gathered, relative to the origin, and its span.
    private var candidate: (bucket: Int64, seconds: Double, frames: Double)?
    private var count = 0.0
    private var sumSeconds = 0.0
    private var sumFrames = 0.0
    private var sumSecondsSquared = 0.0
    private var sumSecondsFrames = 0.0
    /// Seconds between the first reading and the last.
    public private(set) var spanSeconds = 0.0

    /// An estimator for a device opened at `nominalSampleRate`.
    public init(nominalSampleRate: Int) {
        self.nominalSampleRate = Double(nominalSampleRate)
    }

    /// Takes one reading: at `monotonicNanoseconds` the device had played (or captured)
    /// `deviceFrames` frames since it started.
    public mutating func record(monotonicNanoseconds: Int64, deviceFrames: Int64) {
        guard let origin else {
            origin = (monotonicNanoseconds, deviceFrames)
            candidate = (0, 0, 0)
            return
        }
        let seconds = Double(monotonicNanoseconds &- origin.nanoseconds) / 1e9
        let frames = Double(deviceFrames &- origin.frames)
        spanSeconds = max(spanSeconds, seconds)
        let bucket = Int64((frames / (nominalSampleRate * Self.bucketSeconds)).rounded(.down))
        if let current = candidate, current.bucket == bucket {
            // The earlier the reading for its frame count, the less it was delayed.
            if seconds - frames / nominalSampleRate < current.seconds - current.frames / nominalSampleRate {
                candidate = (bucket, seconds, frames)
            }
            return
        }
        if let current = candidate { add(seconds: current.seconds, frames: current.frames) }
        candidate = (bucket, seconds, frames)
    }

    private mutating func add(seconds: Double, frames: Double) {
        count += 1
        sumSeconds += seconds
        sumFrames += frames
        sumSecondsSquared += seconds * seconds
        sumSecondsFrames += seconds * frames
    }

    /// Forgets every reading (after an xrun, or when the device is reopened).
    public mutating func reset() {
        self = DeviceClockEstimator(nominalSampleRate: Int(nominalSampleRate))
    }

    /// The device's measured sample rate in frames per second, once the readings span at
    /// least a second; nil before.
    public var sampleRate: Double? {
        guard spanSeconds >= 1, let candidate else { return nil }
        // The span being gathered counts with its best reading so far.
        let count = count + 1
        let sumSeconds = sumSeconds + candidate.seconds
        let sumFrames = sumFrames + candidate.frames
        let sumSecondsSquared = sumSecondsSquared + candidate.seconds * candidate.seconds
        let sumSecondsFrames = sumSecondsFrames + candidate.seconds * candidate.frames
        guard count >= 3 else { return nil }
        let denominator = count * sumSecondsSquared - sumSeconds * sumSeconds
        guard denominator > 0 else { return nil }
        return (count * sumSecondsFrames - sumSeconds * sumFrames) / denominator
    }

    /// How far the device's clock runs from its nominal rate, in parts per million (positive:
    /// it plays faster than the monotonic clock says it should); nil before a second of readings.
    public var skewPartsPerMillion: Double? {
        sampleRate.map { ($0 / nominalSampleRate - 1) * 1e6 }
    }
}
