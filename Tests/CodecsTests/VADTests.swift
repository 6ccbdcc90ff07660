import Codecs
import Testing

@Suite("Energy voice activity detector")
struct VADTests {
    static let sampleRate = 16_000
    static let frame = 320

    /// Decisions for each 20 ms frame of `signal`.
    static func decisions(_ signal: [Int16], detector: inout EnergyVoiceActivityDetector) -> [Bool] {
        stride(from: 0, through: signal.count - frame, by: frame).map { start in
            signal[start..<start + frame].withUnsafeBufferPointer { detector.isSpeech($0) }
        }
    }

    @Test func measuresLevelsInDBov() {
        let fullScaleSine = OpusTestAudio.tone(frequency: 1000, sampleRate: 16_000, count: 1600, amplitude: 32_767)
        let sineLevel = fullScaleSine.withUnsafeBufferPointer { EnergyVoiceActivityDetector.levelDBov(of: $0) }
        #expect(abs(sineLevel + 3.01) < 0.05)
        let square = [Int16](repeating: -32_768, count: 160)
        #expect(square.withUnsafeBufferPointer { EnergyVoiceActivityDetector.levelDBov(of: $0) } == 0)
        let silence = [Int16](repeating: 0, count: 160)
        #expect(
            silence.withUnsafeBufferPointer { EnergyVoiceActivityDetector.levelDBov(of: $0) }
                == EnergyVoiceActivityDetector.minimumLevelDBov)
    }

    @Test func separatesTalkFromBackgroundWithHangover() {
        // 1 s of background noise (about −55 dBov), 1 s of a −20 dBov tone over it, 1 s of noise.
        let second = Self.sampleRate
        let background = OpusTestAudio.noise(count: 3 * second, amplitude: 100, seed: 4)
        let talk = OpusTestAudio.tone(frequency: 220, sampleRate: Self.sampleRate, count: second, amplitude: 4600)
        var signal = background
        for index in 0..<second { signal[second + index] &+= talk[index] }
        var detector = EnergyVoiceActivityDetector(configuration: .init(sampleRate: Self.sampleRate, hangoverMilliseconds: 200))
        let decisions = Self.decisions(signal, detector: &detector)
        #expect(decisions[10..<50].allSatisfy { !$0 }, "background marked as speech")
        #expect(decisions[50..<100].allSatisfy { $0 }, "talk marked as silence")
        // 200 ms of hangover after the talk, then silence again.
        #expect(decisions[100..<110].allSatisfy { $0 })
        #expect(decisions[111..<150].allSatisfy { !$0 })
        #expect(detector.noiseFloorDBov < -50)
    }

    @Test func noiseFloorFollowsALouderBackground() {
        // The background steps up by 20 dB and stays: within ten seconds it is background again.
        let quiet = OpusTestAudio.noise(count: Self.sampleRate, amplitude: 60, seed: 1)
        let loud = OpusTestAudio.noise(count: 10 * Self.sampleRate, amplitude: 600, seed: 2)
        var detector = EnergyVoiceActivityDetector(configuration: .init(sampleRate: Self.sampleRate))
        let decisions = Self.decisions(quiet + loud, detector: &detector)
        #expect(decisions[60], "a sudden 20 dB rise should first look like speech")
        #expect(decisions.suffix(100).allSatisfy { !$0 }, "the floor never caught up")
    }

    @Test func tellsTheSyntheticTalkerFromItsPauses() {
        let speech = OpusTestAudio.speechLike(sampleRate: Self.sampleRate, seconds: 8)
        var detector = EnergyVoiceActivityDetector(configuration: .init(sampleRate: Self.sampleRate))
        let decisions = Self.decisions(speech, detector: &detector)
        // Ground truth from the signal itself: frames well above the −70 dBov noise.
        let loud = stride(from: 0, through: speech.count - Self.frame, by: Self.frame).map { start in
            speech[start..<start + Self.frame].withUnsafeBufferPointer { EnergyVoiceActivityDetector.levelDBov(of: $0) } > -40
        }
        let missed = zip(loud, decisions).filter { $0 && !$1 }.count
        let active = decisions.filter { $0 }.count
        #expect(missed == 0)
        #expect(active < decisions.count * 9 / 10, "pauses should be found: \(active) of \(decisions.count) active")
        var reset = detector
        reset.reset()
        #expect(reset.noiseFloorDBov == EnergyVoiceActivityDetector.minimumLevelDBov)
    }
}
