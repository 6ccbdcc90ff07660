import Foundation
import TestSupport

/// Signals, measurements and file plumbing shared by the Opus, speexdsp and VAD tests.
enum OpusTestAudio {
    /// A vowel-like synthetic talker: talk spurts of 0.5–1.5 s separated by 0.3–0.9 s pauses;
    /// within a spurt, a glottal pulse train with a gliding pitch through three formant
    /// resonators, shaped into syllables of 250 ms; a faint white noise floor throughout
    /// (`noiseAmplitude` peak, about −70 dBov by default). Peak level about −9 dBov.
    static func speechLike(sampleRate: Int, seconds: Double, seed: UInt64 = 1, noiseAmplitude: Double = 16) -> [Int16] {
        let count = Int(Double(sampleRate) * seconds)
        var generator = SplitMix64(seed: seed)
        var voiced = [Double](repeating: 0, count: count)
        var position = Int(0.2 * Double(sampleRate))
        while position < count {
            let spurt = Int(Double(sampleRate) * Double.random(in: 0.5...1.5, using: &generator))
            let basePitch = Double.random(in: 95...190, using: &generator)
            synthesizeSpurt(
                into: &voiced, from: position, count: min(spurt, count - position),
                sampleRate: Double(sampleRate), basePitch: basePitch, generator: &generator)
            position += spurt + Int(Double(sampleRate) * Double.random(in: 0.3...0.9, using: &generator))
        }
        let peak = voiced.map(abs).max() ?? 1
        let gain = peak > 0 ? 11_000 / peak : 0
        return voiced.map { sample in
            Int16(clamping: Int((sample * gain + noiseAmplitude * generator.bipolar()).rounded()))
        }
    }

    private static func synthesizeSpurt(
        into output: inout [Double], from start: Int, count: Int, sampleRate: Double, basePitch: Double,
        generator: inout SplitMix64
    ) {
        var resonators = [Resonator(), Resonator(), Resonator()]
        var phase = 0.0
        let syllableSamples = 0.25 * sampleRate
        var formants = randomVowel(&generator)
        for index in 0..<count {
            let time = Double(index) / sampleRate
            if index > 0, index % Int(syllableSamples) == 0 { formants = randomVowel(&generator) }
            let pitch = basePitch * (1 + 0.12 * sin(2 * .pi * 2.7 * time) - 0.15 * time / 1.5)
            phase += pitch / sampleRate
            var excitation = 0.02 * generator.bipolar()
            if phase >= 1 {
                phase -= 1
                excitation += 1
            }
            var sample = excitation
            for (slot, formant) in formants.enumerated() {
                sample = resonators[slot].filter(
                    sample, frequency: formant.frequency, bandwidth: formant.bandwidth,
                    sampleRate: sampleRate)
            }
            let syllablePhase = Double(index).truncatingRemainder(dividingBy: syllableSamples) / syllableSamples
            let envelope = pow(sin(.pi * syllablePhase), 2)
            output[start + index] = sample * envelope
        }
    }

    private static func randomVowel(_ generator: inout SplitMix64) -> [(frequency: Double, bandwidth: Double)] {
        [
            (Double.random(in: 300...800, using: &generator), 80),
            (Double.random(in: 900...2200, using: &generator), 120),
            (Double.random(in: 2400...3200, using: &generator), 200),
        ]
    }

    /// A two-pole resonator (one formant).
    private struct Resonator {
        var previous = 0.0
        var beforePrevious = 0.0

        mutating func filter(_ input: Double, frequency: Double, bandwidth: Double, sampleRate: Double) -> Double {
            let radius = exp(-.pi * bandwidth / sampleRate)
            let angle = 2 * .pi * frequency / sampleRate
            let output = (1 - radius) * input + 2 * radius * cos(angle) * previous - radius * radius * beforePrevious
            beforePrevious = previous
            previous = output
            return output
        }
    }

    /// A sine of `frequency` hertz and peak `amplitude`.
    static func tone(frequency: Double, sampleRate: Int, count: Int, amplitude: Double = 10_000) -> [Int16] {
        (0..<count).map { index in
            Int16((amplitude * sin(2 * .pi * frequency * Double(index) / Double(sampleRate))).rounded())
        }
    }

    /// Uniform white noise of peak `amplitude`.
    static func noise(count: Int, amplitude: Double, seed: UInt64) -> [Int16] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Int16((amplitude * generator.bipolar()).rounded()) }
    }

    /// Two mono signals of equal length interleaved into one stereo signal.
    static func interleave(_ left: [Int16], _ right: [Int16]) -> [Int16] {
        zip(left, right).flatMap { [$0, $1] }
    }

    /// The ratio of `reference`'s energy to the energy of its difference from `test`, in dB.
    static func snrDecibels<Reference: Collection<Int16>, Test: Collection<Int16>>(
        reference: Reference, test: Test
    ) -> Double {
        var signal = 0.0
        var error = 0.0
        for (expected, actual) in zip(reference, test) {
            signal += Double(expected) * Double(expected)
            error += (Double(expected) - Double(actual)) * (Double(expected) - Double(actual))
        }
        return 10 * log10(signal / max(error, 1e-9))
    }

    /// The mean energy per sample of `samples`, in dB relative to one LSB squared.
    static func energyDecibels<Samples: Collection<Int16>>(_ samples: Samples) -> Double {
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(max(sum / Double(max(samples.count, 1)), 1e-9))
    }

    /// A fresh folder under the temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("codecs-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes 16-bit native-endian samples, as `sox -t raw -e signed -b 16` reads them.
    static func writeRaw(_ samples: [Int16], to url: URL) throws {
        try samples.withUnsafeBytes { try Data($0).write(to: url) }
    }

    /// Reads 16-bit native-endian samples.
    static func readRaw(_ url: URL) throws -> [Int16] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// `text` spoken by espeak-ng, resampled by sox to `sampleRate` mono.
    static func espeakSpeech(_ text: String, sampleRate: Int, in folder: URL) throws -> [Int16] {
        let wave = folder.appendingPathComponent("espeak.wav")
        let raw = folder.appendingPathComponent("espeak-\(sampleRate).raw")
        try ExternalTool.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", wave.path, text])
        try ExternalTool.run([
            "sox", "-D", "-R", wave.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-c", "1", "-r", "\(sampleRate)", raw.path,
        ])
        return try readRaw(raw)
    }
}

extension SplitMix64 {
    /// A uniform value in [-1, 1), for the synthetic signals' noise.
    mutating func bipolar() -> Double { Double.random(in: -1..<1, using: &self) }
}
