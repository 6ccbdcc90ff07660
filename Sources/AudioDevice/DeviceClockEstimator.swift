/// Measures a sound card's sample clock against the monotonic clock: a least-squares line
/// through (monotonic time, frames the device has played or captured) readings, whose slope is
/// the device's real sample rate. A card's crystal is off by tens to hundreds of parts per
/// million: over a call that drifts by whole periods, which something (the jitter buffer's
/// stretching) must absorb. A pure value: the caller reads the device and the clock.
///
/// Readings after an xrun do not continue the line (the device's count stopped while its
/// clock went on): call ``reset()`` then.
public struct DeviceClockEstimator: Sendable {
    /// The rate the device was opened at, frames per second.
    public let nominalSampleRate: Double
    /// The first reading, the origin of the sums (keeps them small).
    private var origin: (nanoseconds: Int64, frames: Int64)?
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
            record(seconds: 0, frames: 0)
            return
        }
        let seconds = Double(monotonicNanoseconds &- origin.nanoseconds) / 1e9
        record(seconds: seconds, frames: Double(deviceFrames &- origin.frames))
        spanSeconds = max(spanSeconds, seconds)
    }

    private mutating func record(seconds: Double, frames: Double) {
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
        guard spanSeconds >= 1, count >= 3 else { return nil }
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
