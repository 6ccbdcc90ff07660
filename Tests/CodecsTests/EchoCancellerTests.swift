import Codecs
import Testing

@Suite("speexdsp echo canceller and preprocessor")
struct EchoCancellerTests {
    static let sampleRate = 16_000
    static let frame = 320

    /// The far end's voice as the microphone hears it: 30 ms later and 6 dB down, plus a weaker
    /// reflection 45 ms later.
    static func echo(of farEnd: [Int16]) -> [Int16] {
        farEnd.indices.map { index in
            let direct = index >= 480 ? Double(farEnd[index - 480]) * 0.5 : 0
            let reflection = index >= 1200 ? Double(farEnd[index - 1200]) * 0.15 : 0
            return Int16(clamping: Int((direct + reflection).rounded()))
        }
    }

    /// Runs the canceller (and the preprocessor after it, when given) over whole signals.
    static func cancel(
        captured: [Int16], playback: [Int16], canceller: EchoCanceller, preprocessor: Preprocessor? = nil
    ) throws -> [Int16] {
        var output: [Int16] = []
        var frameOut = [Int16](repeating: 0, count: frame)
        for start in stride(from: 0, through: captured.count - frame, by: frame) {
            try captured[start..<start + frame].withUnsafeBufferPointer { near in
                try playback[start..<start + frame].withUnsafeBufferPointer { far in
                    try frameOut.withUnsafeMutableBufferPointer { out in
                        try canceller.cancel(captured: near, playback: far, into: out)
                        try preprocessor?.process(out)
                    }
                }
            }
            output += frameOut
        }
        return output
    }

    /// Echo return loss enhancement over the last three seconds: how much quieter the output is
    /// than the echo that came in, in dB.
    static func erle(echo: [Int16], output: [Int16]) -> Double {
        let tail = (echo.count - 3 * sampleRate)..<echo.count
        return OpusTestAudio.energyDecibels(echo[tail]) - OpusTestAudio.energyDecibels(output[tail])
    }

    @Test func cancelsASyntheticEcho() throws {
        let farEnd = OpusTestAudio.speechLike(sampleRate: Self.sampleRate, seconds: 12, seed: 3, noiseAmplitude: 300)
        let echo = Self.echo(of: farEnd)
        let canceller = try EchoCanceller(sampleRate: Self.sampleRate, frameMilliseconds: 20, tailMilliseconds: 128)
        let output = try Self.cancel(captured: echo, playback: farEnd, canceller: canceller)
        let erle = Self.erle(echo: echo, output: output)
        #expect(erle > 10, "ERLE \(erle) dB")

        // The preprocessor's residual echo suppression removes more.
        let suppressed = try EchoCanceller(sampleRate: Self.sampleRate, frameMilliseconds: 20, tailMilliseconds: 128)
        let preprocessor = try Preprocessor(sampleRate: Self.sampleRate, frameMilliseconds: 20)
        try preprocessor.attach(suppressed)
        let cleaner = try Self.cancel(captured: echo, playback: farEnd, canceller: suppressed, preprocessor: preprocessor)
        let erleWithSuppression = Self.erle(echo: echo, output: cleaner)
        #expect(erleWithSuppression > erle + 3, "ERLE \(erle) dB, with residual suppression \(erleWithSuppression) dB")
    }

    @Test func keepsTheNearEndTalkerInDoubleTalk() throws {
        let farEnd = OpusTestAudio.speechLike(sampleRate: Self.sampleRate, seconds: 10, seed: 3, noiseAmplitude: 300)
        // The near end starts talking after six seconds, once the filter has converged.
        let nearEnd =
            [Int16](repeating: 0, count: 6 * Self.sampleRate)
            + OpusTestAudio.speechLike(sampleRate: Self.sampleRate, seconds: 4, seed: 11).map { $0 / 2 }
        let echo = Self.echo(of: farEnd)
        let captured = zip(echo, nearEnd).map { Int16(clamping: Int($0) + Int($1)) }
        let canceller = try EchoCanceller(sampleRate: Self.sampleRate, tailMilliseconds: 128)
        let output = try Self.cancel(captured: captured, playback: farEnd, canceller: canceller)
        let tail = (output.count - 3 * Self.sampleRate)..<output.count
        let residualEcho = OpusTestAudio.snrDecibels(reference: nearEnd[tail], test: output[tail])
        let rawEcho = OpusTestAudio.snrDecibels(reference: nearEnd[tail], test: captured[tail])
        #expect(residualEcho > rawEcho + 6, "near-end SNR \(rawEcho) dB before, \(residualEcho) dB after")
    }

    @Test func denoiserSuppressesStationaryNoise() throws {
        let noise = OpusTestAudio.noise(count: Self.sampleRate * 4, amplitude: 2000, seed: 9)
        func processed(_ configuration: PreprocessorConfiguration) throws -> [Int16] {
            let preprocessor = try Preprocessor(sampleRate: Self.sampleRate, configuration: configuration)
            var signal = noise
            for start in stride(from: 0, to: signal.count, by: Self.frame) {
                try signal.withUnsafeMutableBufferPointer {
                    try preprocessor.process(UnsafeMutableBufferPointer(rebasing: $0[start..<start + Self.frame]))
                }
            }
            return signal
        }
        let lastSecond = (noise.count - Self.sampleRate)..<noise.count
        let input = OpusTestAudio.energyDecibels(noise[lastSecond])
        let denoised = try OpusTestAudio.energyDecibels(processed(PreprocessorConfiguration())[lastSecond])
        let untouched = try OpusTestAudio.energyDecibels(processed(PreprocessorConfiguration(denoise: false))[lastSecond])
        #expect(input - denoised > 10, "noise \(input) dB, denoised \(denoised) dB")
        #expect(abs(input - untouched) < 1, "noise \(input) dB, untouched \(untouched) dB")
    }

    @Test func gainControlRaisesQuietSpeech() throws {
        let quiet = OpusTestAudio.speechLike(sampleRate: Self.sampleRate, seconds: 8, seed: 5).map { $0 / 16 }
        let preprocessor = try Preprocessor(
            sampleRate: Self.sampleRate,
            configuration: PreprocessorConfiguration(
                denoise: false, automaticGainControl: true, automaticGainControlLevel: 8000))
        var signal = quiet
        for start in stride(from: 0, through: signal.count - Self.frame, by: Self.frame) {
            try signal.withUnsafeMutableBufferPointer {
                try preprocessor.process(UnsafeMutableBufferPointer(rebasing: $0[start..<start + Self.frame]))
            }
        }
        let lastSeconds = (quiet.count - 3 * Self.sampleRate)..<quiet.count
        let gain = OpusTestAudio.energyDecibels(signal[lastSeconds]) - OpusTestAudio.energyDecibels(quiet[lastSeconds])
        #expect(gain > 6, "AGC gain \(gain) dB")
    }

    @Test func rejectsWrongFramesAndMismatchedParts() throws {
        let canceller = try EchoCanceller(sampleRate: 8000, frameMilliseconds: 10)
        #expect(canceller.samplesPerFrame == 80)
        let frame = [Int16](repeating: 0, count: 80)
        var output = [Int16](repeating: 0, count: 80)
        let long = [Int16](repeating: 0, count: 160)
        #expect(throws: CodecError.wrongFrameSize(expectedSamples: 80, actualSamples: 160)) {
            try long.withUnsafeBufferPointer { near in
                try frame.withUnsafeBufferPointer { far in
                    try output.withUnsafeMutableBufferPointer { try canceller.cancel(captured: near, playback: far, into: $0) }
                }
            }
        }
        let preprocessor = try Preprocessor(sampleRate: 8000, frameMilliseconds: 20)
        #expect(throws: CodecError.self) { try preprocessor.attach(canceller) }
        #expect(throws: CodecError.wrongFrameSize(expectedSamples: 160, actualSamples: 80)) {
            try output.withUnsafeMutableBufferPointer { try preprocessor.process($0) }
        }
        #expect(throws: CodecError.self) { try EchoCanceller(sampleRate: 11_025) }
        #expect(throws: CodecError.self) { try EchoCanceller(sampleRate: 8000, frameMilliseconds: 5) }
        #expect(throws: CodecError.self) { try EchoCanceller(sampleRate: 8000, tailMilliseconds: 5000) }
        #expect(throws: CodecError.self) {
            try Preprocessor(sampleRate: 8000, configuration: PreprocessorConfiguration(noiseSuppressionDecibels: 10))
        }
        let matching = try Preprocessor(sampleRate: 8000, frameMilliseconds: 10)
        try matching.attach(canceller)
        #expect(matching.echoCanceller === canceller)
        try matching.detachEchoCanceller()
        #expect(matching.echoCanceller == nil)
    }
}
