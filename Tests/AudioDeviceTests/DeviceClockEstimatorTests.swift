import AudioDevice
import Testing

/// The device clock estimate against known rates, with the reading jitter a real audio
/// thread has.
@Suite struct DeviceClockEstimatorTests {
    /// Readings every 10 ms for `seconds` of a device at `rate` frames per second, each read
    /// up to `jitterMicroseconds` late (a deterministic pseudo-random pattern).
    private static func estimate(rate: Double, seconds: Int, jitterMicroseconds: Int64) -> DeviceClockEstimator {
        var estimator = DeviceClockEstimator(nominalSampleRate: 48000)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for tick in 0..<(seconds * 100) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let lateness = Int64(state >> 33) % (jitterMicroseconds * 1000 + 1)
            let when = 7_000_000_000 + Int64(tick) * 10_000_000 + lateness
            // What the device had played when it was read (it keeps playing while we are late).
            let frames = Int64((Double(when - 7_000_000_000) / 1e9 * rate).rounded(.down)) + 123_456
            estimator.record(monotonicNanoseconds: when, deviceFrames: frames)
        }
        return estimator
    }

    @Test(arguments: [300.0, -300.0, 3000.0, -3000.0, 0.0])
    func theSkewOfADeviceIsMeasuredWithinAFewPartsPerMillion(skew: Double) throws {
        let estimator = Self.estimate(rate: 48000 * (1 + skew / 1e6), seconds: 60, jitterMicroseconds: 500)
        let measured = try #require(estimator.skewPartsPerMillion)
        #expect(abs(measured - skew) < 5, "measured \(measured) ppm for \(skew) ppm")
    }

    /// A loaded machine: from the middle of the call on, one reading in three has its clock
    /// read up to 30 ms after the device (the thread lost the CPU in between). Through every
    /// reading, the line would tilt by hundreds of ppm; through the earliest of each span,
    /// not at all.
    @Test(arguments: [300.0, -300.0, 3000.0])
    func readingsDelayedUnderLoadDoNotMoveTheMeasuredSkew(skew: Double) throws {
        var estimator = DeviceClockEstimator(nominalSampleRate: 48000)
        let rate = 48000 * (1 + skew / 1e6)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for tick in 0..<6000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let read = Int64(tick) * 10_000_000
            let frames = Int64((Double(read) / 1e9 * rate).rounded(.down))
            let delayed = tick >= 3000 && (state >> 40) % 3 == 0
            let delay = delayed ? Int64(state >> 33) % 30_000_000 : Int64(state >> 33) % 200_000
            estimator.record(monotonicNanoseconds: 5_000_000_000 + read + delay, deviceFrames: frames)
        }
        let measured = try #require(estimator.skewPartsPerMillion)
        #expect(abs(measured - skew) < 5, "measured \(measured) ppm for \(skew) ppm")
    }

    @Test func nothingIsClaimedBeforeASecondOfReadingsNorAfterAReset() {
        var estimator = Self.estimate(rate: 48000, seconds: 0, jitterMicroseconds: 0)
        #expect(estimator.skewPartsPerMillion == nil)
        estimator.record(monotonicNanoseconds: 1_000_000_000, deviceFrames: 0)
        estimator.record(monotonicNanoseconds: 1_500_000_000, deviceFrames: 24000)
        #expect(estimator.skewPartsPerMillion == nil)
        estimator.record(monotonicNanoseconds: 2_000_000_000, deviceFrames: 48000)
        #expect(estimator.skewPartsPerMillion == 0)
        estimator.reset()
        #expect(estimator.skewPartsPerMillion == nil)
        #expect(estimator.spanSeconds == 0)
    }
}
