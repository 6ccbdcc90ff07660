import MediaSession
import Testing

/// The mapping of kernel receive timestamps (wall clock) onto the monotonic clock, driven by
/// hand: known offsets, steps both ways, stamps in flight across a step, and noise.
@Suite struct WallClockMappingTests {
    /// Monotonic 5 s, wall 1 700 000 000 s: the offset every stamp is mapped with at first.
    private static let monotonicStart: Int64 = 5_000_000_000
    private static let wallStart: Int64 = 1_700_000_000_000_000_000
    private static let second: Int64 = 1_000_000_000
    private static let millisecond: Int64 = 1_000_000

    /// A reading taking `uncertainty` ns at monotonic `monotonic` while the wall clock is `offset` ahead of it.
    private static func reading(at monotonic: Int64, offset: Int64, uncertainty: Int64 = 2_000) -> ClockOffsetMeasurement {
        ClockOffsetMeasurement(
            monotonicBeforeNanoseconds: monotonic, wallNanoseconds: monotonic + uncertainty / 2 + offset,
            monotonicAfterNanoseconds: monotonic + uncertainty)
    }

    private static let offset = wallStart - monotonicStart

    @Test func aStampMapsToTheMonotonicTimeItWasTakenAt() {
        let mapping = WallClockMapping(Self.reading(at: Self.monotonicStart, offset: Self.offset))
        #expect(mapping.offsetNanoseconds == Self.offset)
        // Taken 3 ms before it was read, 200 ms into the call.
        let taken = Self.monotonicStart + 200 * Self.millisecond
        let mapped = mapping.monotonicNanoseconds(ofWallNanoseconds: taken + Self.offset, readAtMonotonicNanoseconds: taken + 3 * Self.millisecond)
        #expect(mapped == taken)
        #expect(!mapping.needsMeasurement(forWallNanoseconds: taken + Self.offset, readAtMonotonicNanoseconds: taken + 3 * Self.millisecond))
    }

    @Test func measurementNoiseIsNoStepAndMovesNothing() {
        var mapping = WallClockMapping(Self.reading(at: Self.monotonicStart, offset: Self.offset))
        // 300 µs off (well inside the 1 ms threshold), then 3 ms off with 5 ms of uncertainty.
        #expect(mapping.update(with: Self.reading(at: Self.monotonicStart + Self.second, offset: Self.offset + 300_000)) == nil)
        #expect(
            mapping.update(
                with: Self.reading(at: Self.monotonicStart + 2 * Self.second, offset: Self.offset + 3 * Self.millisecond, uncertainty: 5 * Self.millisecond)
            ) == nil)
        #expect(mapping.offsetNanoseconds == Self.offset)
        #expect(mapping.stepCount == 0)
    }

    @Test(arguments: [Int64(1), -1])
    func aOneSecondStepIsCountedAndNoArrivalMoves(direction: Int64) {
        var mapping = WallClockMapping(Self.reading(at: Self.monotonicStart, offset: Self.offset))
        let step = direction * Self.second
        // The wall clock steps at monotonic 10 s. A packet stamped 2 ms before the step is read
        // 1 ms after it, a packet stamped 5 ms after it 1 ms later.
        let stepAt = Self.monotonicStart + 10 * Self.second
        let before = stepAt - 2 * Self.millisecond, after = stepAt + 5 * Self.millisecond
        let lateStamp = after + Self.offset + step
        #expect(mapping.needsMeasurement(forWallNanoseconds: lateStamp, readAtMonotonicNanoseconds: after + Self.millisecond))
        #expect(mapping.update(with: Self.reading(at: stepAt + Self.millisecond, offset: Self.offset + step)) == step)
        #expect(mapping.stepCount == 1)
        #expect(mapping.offsetNanoseconds == Self.offset + step)
        #expect(mapping.monotonicNanoseconds(ofWallNanoseconds: before + Self.offset, readAtMonotonicNanoseconds: stepAt + Self.millisecond) == before)
        #expect(mapping.monotonicNanoseconds(ofWallNanoseconds: lateStamp, readAtMonotonicNanoseconds: after + Self.millisecond) == after)
        // A minute later, arrivals still map to when they came.
        let later = stepAt + 60 * Self.second
        #expect(mapping.monotonicNanoseconds(ofWallNanoseconds: later + Self.offset + step, readAtMonotonicNanoseconds: later + 400_000) == later)
    }

    @Test func theMeasurementIsDueEverySecondAndWhenAStampLooksWrong() {
        let mapping = WallClockMapping(Self.reading(at: Self.monotonicStart, offset: Self.offset))
        let soon = Self.monotonicStart + 900 * Self.millisecond
        #expect(!mapping.needsMeasurement(forWallNanoseconds: soon + Self.offset, readAtMonotonicNanoseconds: soon))
        let due = Self.monotonicStart + Self.second + 2_000
        #expect(mapping.needsMeasurement(forWallNanoseconds: due + Self.offset, readAtMonotonicNanoseconds: due))
        // From the future, or older than half a second when read.
        #expect(mapping.needsMeasurement(forWallNanoseconds: soon + Self.offset + 50 * Self.millisecond, readAtMonotonicNanoseconds: soon))
        #expect(mapping.needsMeasurement(forWallNanoseconds: soon + Self.offset - 600 * Self.millisecond, readAtMonotonicNanoseconds: soon))
    }

    @Test func aStampThatWaitedWithoutAStepKeepsItsTimeAndOneFromTheFutureIsReadNow() {
        var mapping = WallClockMapping(Self.reading(at: Self.monotonicStart, offset: Self.offset))
        // The I/O thread stalled for 2 s: the measurement finds no step, the stamp is right.
        let read = Self.monotonicStart + 3 * Self.second
        #expect(mapping.update(with: Self.reading(at: read, offset: Self.offset)) == nil)
        let taken = read - 2 * Self.second
        #expect(mapping.monotonicNanoseconds(ofWallNanoseconds: taken + Self.offset, readAtMonotonicNanoseconds: read) == taken)
        // A stamp that maps after its own reading cannot be right: it arrived when it was read.
        #expect(mapping.monotonicNanoseconds(ofWallNanoseconds: read + Self.offset + Self.second, readAtMonotonicNanoseconds: read) == read)
    }

    @Test func theNarrowestOfThreeReadingsIsKept() {
        let measurement = ClockOffsetMeasurement.measure(monotonic: SystemMonotonicClock(), wall: SystemWallClock())
        #expect(measurement.uncertaintyNanoseconds >= 0)
        #expect(measurement.monotonicAfterNanoseconds >= measurement.monotonicBeforeNanoseconds)
        // CLOCK_REALTIME is decades ahead of CLOCK_MONOTONIC (the time since boot).
        #expect(measurement.offsetNanoseconds > 1_000_000_000 * 86_400 * 365 * 30)
    }
}
