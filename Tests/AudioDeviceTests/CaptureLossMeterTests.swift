@testable import AudioDevice
import Testing

/// The frames a capture overrun lost, from the reads either side of it (known answers).
@Suite struct CaptureLossMeterTests {
    @Test func readsWithoutARecoveryLoseNothing() {
        var meter = CaptureLossMeter(sampleRate: 8000)
        for read in 0..<100 {
            let lost = meter.recordRead(monotonicNanoseconds: 5_000_000_000 + Int64(read) * 13_000_000, frames: 80, bufferedFrames: 7, recovered: false)
            #expect(lost == 0)
        }
    }

    @Test func anOverrunLosesTheStallAndWhatTheBufferHeld() {
        var meter = CaptureLossMeter(sampleRate: 8000)
        // A read at t = 1 s leaves 30 frames buffered; the thread stops 1 s; the device
        // overruns, the recovery discards its buffer, and the read after the restart returns a
        // period (80 frames) later, at t = 2.01 s, with nothing left buffered. The card's frames
        // from the end of the first read to the start of the second span 1.01 s and 30 frames,
        // less the 80 read: 8030 lost.
        #expect(meter.recordRead(monotonicNanoseconds: 1_000_000_000, frames: 80, bufferedFrames: 30, recovered: false) == 0)
        #expect(meter.recordRead(monotonicNanoseconds: 2_010_000_000, frames: 80, bufferedFrames: 0, recovered: true) == 8030)
        // At 48 kHz: 250 ms stopped, a period read 10 ms after the restart with 20 frames already
        // in again: 0.26 s × 48000 − 480 − 20 = 11 980.
        var wideband = CaptureLossMeter(sampleRate: 48000)
        _ = wideband.recordRead(monotonicNanoseconds: 40_000_000, frames: 480, bufferedFrames: 0, recovered: false)
        #expect(wideband.recordRead(monotonicNanoseconds: 300_000_000, frames: 480, bufferedFrames: 20, recovered: true) == 11980)
    }

    @Test func aRecoveryOnTheFirstReadHasNothingToMeasureFrom() {
        var meter = CaptureLossMeter(sampleRate: 16000)
        #expect(meter.recordRead(monotonicNanoseconds: 9_000_000_000, frames: 160, bufferedFrames: 0, recovered: true) == 0)
    }

    @Test func aReadingTakenLateNeverMakesANegativeLoss() {
        var meter = CaptureLossMeter(sampleRate: 8000)
        _ = meter.recordRead(monotonicNanoseconds: 1_000_000_000, frames: 80, bufferedFrames: 0, recovered: false)
        #expect(meter.recordRead(monotonicNanoseconds: 1_005_000_000, frames: 80, bufferedFrames: 0, recovered: true) == 0)
    }
}
