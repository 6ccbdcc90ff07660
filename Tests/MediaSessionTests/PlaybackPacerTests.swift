import Testing

@testable import MediaSession

/// The pacer against a simulated device clock in virtual time: the queue it keeps, the rate it
/// measures, and a late tick it survives. (The same pacing against a device timed on the real
/// monotonic clock is ``DeviceClockSkewTests``.)
@Suite struct PlaybackPacerTests {
    /// Ticks a pacer for `seconds` against a device at 8000 × (1 + skew) frames per second,
    /// each tick writing 10 ms after reading the queue; one tick `lateMilliseconds` late at 5 s.
    /// Returns the pacer, the smallest queue read after the first second, and the queue at the end.
    private static func run(skew: Double, seconds: Int, lateMilliseconds: Int64 = 0) -> (PlaybackPacer, minimum: Int, last: Int) {
        var pacer = PlaybackPacer(sampleRate: 8000, periodNanoseconds: 10_000_000)
        let rate = 8000 * (1 + skew / 1e6)
        var queued = Double(pacer.headroomFrames)  // the headroom written at open
        var written = Int64(pacer.headroomFrames)
        var now: Int64 = 1_000_000_000, lastPlayed = now
        var underruns = 0, minimum = Int.max, late = false
        while now < 1_000_000_000 + Int64(seconds) * 1_000_000_000 {
            queued -= Double(now - lastPlayed) / 1e9 * rate
            lastPlayed = now
            if queued < 0 {
                underruns += 1
                queued = 0
            }
            pacer.record(AudioPlaybackPosition(queuedFrames: Int(queued), underruns: underruns), writtenFrames: written, monotonicNanoseconds: now)
            if now > 2_000_000_000 { minimum = min(minimum, Int(queued)) }
            queued += 80
            written += 80
            now += pacer.nextPeriodNanoseconds
            if !late, now > 6_000_000_000, lateMilliseconds > 0 {
                late = true
                now += lateMilliseconds * 1_000_000
            }
        }
        return (pacer, minimum, Int(queued))
    }

    @Test(arguments: [3000.0, -3000.0, 300.0, -300.0])
    func theQueueStaysAtItsHeadroomAndTheSkewIsMeasured(skew: Double) throws {
        let (pacer, minimum, last) = Self.run(skew: skew, seconds: 60)
        #expect(pacer.underruns == 0)
        // Before the last write: within 4 frames (0.5 ms) of the 160-frame headroom.
        #expect(abs(last - 80 - pacer.headroomFrames) <= 4, "queue \(last - 80)")
        #expect(minimum >= pacer.headroomFrames - 8, "smallest queue \(minimum)")
        let measured = try #require(pacer.estimator.skewPartsPerMillion)
        #expect(abs(measured - skew) < 20, "measured \(measured) ppm for \(skew) ppm")
    }

    @Test func aTickTenMillisecondsLateDoesNotUnderrun() {
        let (pacer, minimum, _) = Self.run(skew: 3000, seconds: 10, lateMilliseconds: 10)
        #expect(pacer.underruns == 0)
        #expect(minimum > 0 && minimum < pacer.headroomFrames, "the late tick ate into the headroom: \(minimum)")
    }

    @Test func aDeviceThatPlaysInstantlyIsTickedAtTheNominalPeriod() {
        var pacer = PlaybackPacer(sampleRate: 8000, periodNanoseconds: 10_000_000)
        pacer.record(AudioPlaybackPosition(queuedFrames: 0, underruns: 0), writtenFrames: 800, monotonicNanoseconds: 5)
        #expect(pacer.nextPeriodNanoseconds == 10_000_000)
        #expect(pacer.estimator.skewPartsPerMillion == nil)
    }
}
