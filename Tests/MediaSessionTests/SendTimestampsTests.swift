@testable import MediaSession
import RTP
import Testing

/// The send path's RTP timestamps across capture losses: whole frames, the rounding carried,
/// every codec's capture rate against its RTP clock, and the wrap of the 32-bit timestamp.
@Suite struct SendTimestampsTests {
    @Test func aFrameIntervalAdvancesOneFrameAndWraps() {
        var timestamps = SendTimestamps(start: RTPTimestamp(UInt32.max - 99), unitsPerFrame: 160, clockRate: 8000, captureSampleRate: 8000)
        timestamps.advanceFrame()
        #expect(timestamps.next.rawValue == 60)
    }

    @Test func aSecondLostAtG711SkipsFiftyFramesAcrossTheWrap() {
        var timestamps = SendTimestamps(start: RTPTimestamp(0xFFFF_FF00), unitsPerFrame: 160, clockRate: 8000, captureSampleRate: 8000)
        #expect(timestamps.skip(lostCaptureFrames: 8000) == 8000)
        // 0xFFFF_FF00 + 8000 − 2³² = 7744.
        #expect(timestamps.next.rawValue == 7744)
    }

    @Test func aLossSkipsTheNearestWholeFramesAndCarriesTheRest() {
        // Opus: 48 kHz capture on a 48 kHz clock, 20 ms frames of 960 units.
        var timestamps = SendTimestamps(start: RTPTimestamp(1000), unitsPerFrame: 960, clockRate: 48000, captureSampleRate: 48000)
        #expect(timestamps.skip(lostCaptureFrames: 1400) == 960, "1.46 frames: one")
        #expect(timestamps.skip(lostCaptureFrames: 600) == 960, "the 440 carried and 600: 1.08 frames, one")
        #expect(timestamps.skip(lostCaptureFrames: 390) == 0, "80 carried and 390: under half a frame, none")
        #expect(timestamps.skip(lostCaptureFrames: 20) == 960, "490: over half a frame, one, 470 owed back")
        #expect(timestamps.skip(lostCaptureFrames: 0) == 0)
        // 2410 lost in all, 3 frames (2880) skipped: within half a frame.
        #expect(timestamps.next.rawValue == 1000 + 2880)
        #expect(timestamps.skip(lostCaptureFrames: 470 + 960) == 960, "what was owed back comes off the next loss")
    }

    @Test func g722CountsItsSixteenKilohertzCaptureOnItsEightKilohertzClock() {
        // G.722: 16 kHz audio, RTP clock 8000 (RFC 3551), 20 ms frames of 160 units.
        var timestamps = SendTimestamps(start: RTPTimestamp(0), unitsPerFrame: 160, clockRate: 8000, captureSampleRate: 16000)
        #expect(timestamps.skip(lostCaptureFrames: 16000) == 8000, "a second")
        #expect(timestamps.skip(lostCaptureFrames: 250) == 160, "15.6 ms: the nearest frame")
        #expect(timestamps.skip(lostCaptureFrames: 100) == 0, "6.25 ms less the 4.4 ms skipped ahead: none")
        #expect(timestamps.next.rawValue == 8160)
    }

    @Test func manyLossesNeverDriftFromTheMediaTimeLost() {
        var timestamps = SendTimestamps(start: RTPTimestamp(UInt32.max - 5000), unitsPerFrame: 320, clockRate: 16000, captureSampleRate: 16000)
        var lost = 0
        var skipped = 0
        for index in 1...1000 {
            let frames = index * 37 % 1000
            lost += frames
            skipped += timestamps.skip(lostCaptureFrames: frames)
            #expect(abs(skipped - lost) <= 160, "after \(index) losses: \(skipped) skipped for \(lost) lost")
        }
        #expect(timestamps.next == RTPTimestamp(UInt32.max - 5000).advanced(by: skipped))
    }
}
