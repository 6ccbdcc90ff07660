import Testing

@testable import MediabenchCLI

/// The cross-correlation behind the measured mouth-to-ear delay, and the signal it runs on.
@Suite struct AudioAlignmentTests {
    @Test func findsAKnownDelayInEveryWindowDespiteGainAndNoise() {
        let sent = SpeechLikeSignal.samples(sampleRate: 8000, seconds: 4)
        var noise = UInt32(1)
        let received =
            [Int16](repeating: 0, count: 296)
            + sent.map { sample in
                noise = noise &* 1_664_525 &+ 1_013_904_223
                return Int16(Int(sample) / 2 + Int(noise >> 28) - 8)
            }
        let matches = AudioAlignment.lags(of: received, behind: sent, sampleRate: 8000, maximumLagSamples: 8000, windowSamples: 8000)
        #expect(matches.count >= 3, "\(matches.count) windows with sound")
        for match in matches {
            #expect(match.lagSamples == 296)
            #expect(match.correlation > 0.99, "correlation \(match.correlation)")
        }
    }

    @Test func followsADelayThatChangesDuringTheRecording() {
        let sent = SpeechLikeSignal.samples(sampleRate: 48000, seconds: 4)
        // 40 ms late for the first two seconds, then 70 ms (30 ms of audio repeated, as a jitter buffer would stretch).
        let received = [Int16](repeating: 0, count: 1920) + sent[..<96000] + sent[(96000 - 1440)...]
        let matches = AudioAlignment.lags(of: received, behind: sent, sampleRate: 48000, maximumLagSamples: 48000, windowSamples: 48000)
        #expect(!matches.isEmpty)
        for match in matches {
            #expect(match.lagSamples == (match.sentStart < 96000 ? 1920 : 3360), "window at \(match.sentStart)")
        }
    }

    @Test func silenceHasNoLag() {
        let silence = [Int16](repeating: 0, count: 16000)
        #expect(AudioAlignment.lags(of: silence, behind: silence, sampleRate: 8000, maximumLagSamples: 800, windowSamples: 8000).isEmpty)
    }

    @Test func testSignalIsSpeechLikeAndReproducible() {
        let signal = SpeechLikeSignal.samples(sampleRate: 8000, seconds: 5)
        #expect(signal == SpeechLikeSignal.samples(sampleRate: 8000, seconds: 5))
        #expect(signal != SpeechLikeSignal.samples(sampleRate: 8000, seconds: 5, seed: 2))
        // 20 ms frames: talkspurts and pauses both present, at a speech level (about −20 dBov).
        let frames = stride(from: 0, to: signal.count - 160, by: 160).map { start in
            (signal[start..<(start + 160)].reduce(0.0) { $0 + Double($1) * Double($1) } / 160).squareRoot()
        }
        let silent = frames.filter { $0 < 30 }.count, loud = frames.filter { $0 > 1000 }.count
        #expect(silent > frames.count / 10 && loud > frames.count / 3, "\(silent) silent and \(loud) loud of \(frames.count) frames")
        #expect(signal.map { abs(Int($0)) }.max() ?? 0 < 32767, "no clipping")
    }
}
