import Testing

@testable import MediaSession

/// The pacer against a simulated device clock in virtual time: the queue it keeps, the rate it
/// measures, and a late tick it survives. (The same pacing against a device timed on the real
/// monotonic clock is ``DeviceClockSkewTests``.)
@Suite struct PlaybackPacerTests {
    /// Ticks a pacer for `seconds` against a device at 8000 × (1 + skew) frames per second,
    /// each tick writing 10 ms after reading the queue (and the silence it asks for after an
    /// underrun); one tick `lateMilliseconds` late at each of `lateAt` (seconds).
    /// Returns the pacer, the smallest queue read after the first second, and the queue at the end.
    private static func run(skew: Double, seconds: Int, lateMilliseconds: Int64 = 0, lateAt: [Int64] = [5]) -> (
        PlaybackPacer, minimum: Int, last: Int
    ) {
        var pacer = PlaybackPacer(sampleRate: 8000, periodNanoseconds: 10_000_000)
        let rate = 8000 * (1 + skew / 1e6)
        var queued = Double(pacer.headroomFrames)  // the headroom written at open
        var written = Int64(pacer.headroomFrames)
        var now: Int64 = 1_000_000_000, lastPlayed = now
        var underruns = 0, minimum = Int.max, pendingLate = lateAt.sorted()
        while now < 1_000_000_000 + Int64(seconds) * 1_000_000_000 {
            queued -= Double(now - lastPlayed) / 1e9 * rate
            lastPlayed = now
            if queued < 0 {
                underruns += 1
                queued = 0
            }
            pacer.record(AudioPlaybackPosition(queuedFrames: Int(queued), underruns: underruns), writtenFrames: written, monotonicNanoseconds: now)
            if now > 2_000_000_000 { minimum = min(minimum, Int(queued)) }
            queued += Double(80 + pacer.primingFrames)
            written += Int64(80 + pacer.primingFrames)
            now += pacer.nextPeriodNanoseconds
            if let next = pendingLate.first, now > 1_000_000_000 + next * 1_000_000_000, lateMilliseconds > 0 {
                pendingLate.removeFirst()
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

    /// A machine that delays the audio thread 35 ms now and then: the first such wake-up
    /// underruns (the machine's doing, not the schedule's) and the headroom grows to cover it
    /// (40 ms, less what 6 s took off), so the next ones do not; two quiet minutes later it
    /// has come down again.
    @Test func theHeadroomGrowsToCoverLateWakeUpsAndFallsBackWhenTheyStop() {
        let (loaded, _, _) = Self.run(skew: 300, seconds: 20, lateMilliseconds: 35, lateAt: [5, 8, 11, 14])
        #expect(loaded.underruns == 1)
        #expect(loaded.underrunsAfterLateWakeUps == 1)
        #expect(loaded.headroomMilliseconds >= 35, "headroom \(loaded.headroomMilliseconds) ms")
        let (quiet, _, _) = Self.run(skew: 300, seconds: 140, lateMilliseconds: 35, lateAt: [5])
        #expect(quiet.underruns == 1 && quiet.underrunsAfterLateWakeUps == 1)
        #expect(quiet.headroomMilliseconds < 25, "headroom \(quiet.headroomMilliseconds) ms two minutes on")
    }

    @Test func aDeviceThatPlaysInstantlyIsTickedAtTheNominalPeriod() {
        var pacer = PlaybackPacer(sampleRate: 8000, periodNanoseconds: 10_000_000)
        pacer.record(AudioPlaybackPosition(queuedFrames: 0, underruns: 0), writtenFrames: 800, monotonicNanoseconds: 5)
        #expect(pacer.nextPeriodNanoseconds == 10_000_000)
        #expect(pacer.estimator.skewPartsPerMillion == nil)
    }
}
