import Jitter
import Testing

/// A sender that stops sending in its pauses (DTX, RFC 3551 §4.1) and sends no comfort noise:
/// its gaps are its silences, told from loss by the sequence number that resumes the stream.
@Suite struct SenderPauseTests {
    /// Talkspurts of 1 s separated by 1 s in which nothing is sent: the sequence numbers run on
    /// without a gap, the timestamps jump. `lost` frames (of the whole timeline) are never sent
    /// though their sequence numbers are used.
    static func dtxScript(spurts: Int, lost: Set<Int> = []) -> Script {
        var script = Script()
        for spurt in 0..<spurts {
            for index in 0..<50 {
                let frame = spurt * 100 + index
                guard !lost.contains(frame) else { continue }
                script.packets.append(
                    ScriptedPacket(
                        sequenceNumber: UInt16(1000 + spurt * 50 + index), timestamp: UInt32(50_000 + frame * 160),
                        arrivalMilliseconds: Double(frame) * 20 + 40, marker: index == 0, identity: UInt64(spurt * 50 + index)
                    ))
            }
        }
        return script
    }

    /// The mean magnitude of the output from pull `start` for `count` pulls.
    static func meanMagnitude(_ result: Replay, pulls start: Int, count: Int) -> Double {
        let samples = result.output[(start * 80)..<((start + count) * 80)]
        return Double(samples.reduce(0) { $0 + abs(Int($1)) }) / Double(samples.count)
    }

    @Test func gapsOfASenderThatPausesWithoutComfortNoiseAreNearSilentAndNotConcealment() {
        // 1100 pulls end before the last talkspurt does: every gap played has been resolved.
        let result = replay(Self.dtxScript(spurts: 6), pulls: 1100)
        // Every packet plays, in order (the last few are still due when the replay ends).
        #expect(result.decodedIdentities == Array(0..<UInt64(result.decodedIdentities.count)))
        #expect(result.decodedIdentities.count > 290)
        // Nothing was lost: no sample is concealment once each gap has shown itself a pause.
        #expect(result.statistics.concealedSamples == 0)
        #expect(result.statistics.concealmentEvents == 0)
        #expect(result.statistics.interruptions == 0)
        // The sender sent nothing for its silences: they play as silence (the middle 600 ms of
        // each, past the concealment fading out), more than 34 dB below the speech.
        // The talkspurts as heard (pulls 200k + 10 ..< 200k + 90).
        let speech = (0..<5).map { Self.meanMagnitude(result, pulls: 200 * $0 + 10, count: 80) }.reduce(0, +) / 5
        for silenceStart in [500, 700, 900] {
            let silence = Self.meanMagnitude(result, pulls: silenceStart + 20, count: 60)
            #expect(silence * 50 < speech, "mean magnitude \(silence) in the silence from pull \(silenceStart), speech \(speech)")
        }
    }

    @Test func aLossInsideATalkspurtOfAPausingSenderIsStillConcealed() {
        // Frame 410 (the middle of the fifth talkspurt) is never sent; its sequence number is
        // missing when the stream goes on.
        let result = replay(Self.dtxScript(spurts: 6, lost: [410]), pulls: 1100)
        #expect(result.statistics.concealmentEvents == 1)
        // One 20 ms frame at 8 kHz is 160 samples; concealment runs in 10 ms pulls.
        #expect(result.statistics.concealedSamples >= 160 && result.statistics.concealedSamples <= 240)
        // Frame 410 is the fifth talkspurt's eleventh packet: identity 4 × 50 + 10.
        let played = result.decodedIdentities
        #expect(played == Array(0...UInt64(played.count)).filter { $0 != 210 })
    }
}
