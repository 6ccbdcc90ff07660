import Foundation
import NetworkModel

/// The built-in test signal of `mediabench call` and `demo`: speech-like audio made in code.
///
/// A voiced source (a fundamental gliding around 140 Hz with harmonics up to 3.6 kHz, shaped by
/// two formants that move from syllable to syllable) under a syllabic envelope: words of two
/// to five syllables of 120–280 ms, separated by pauses of 150–600 ms. Its level is about
/// −20 dBov while talking. The pauses and the non-periodic envelope give cross-correlation one
/// clear peak and let the jitter buffer see talkspurts; the same seed gives the same signal.
enum SpeechLikeSignal {
    /// `seconds` of the signal at `sampleRate`, mono.
    static func samples(sampleRate: Int, seconds: Double, seed: UInt64 = 1) -> [Int16] {
        let count = max(0, Int(Double(sampleRate) * seconds))
        var random = SeededGenerator(seed: seed)
        var output = [Int16](repeating: 0, count: count)
        var phase = 0.0
        var position = Int(0.1 * Double(sampleRate))  // a short silence first
        while position < count {
            let syllables = 2 + Int(random.next() % 4)
            for _ in 0..<syllables where position < count {
                let length = Int((0.12 + 0.16 * random.nextUnitInterval()) * Double(sampleRate))
                let formants = (500 + 350 * random.nextUnitInterval(), 1100 + 1000 * random.nextUnitInterval())
                let pitchOffset = 30 * (random.nextUnitInterval() - 0.5)
                for index in 0..<min(length, count - position) {
                    let time = Double(position + index) / Double(sampleRate)
                    let fundamental = 140 + pitchOffset + 20 * sin(2 * Double.pi * 0.7 * time)
                    phase = (phase + 2 * Double.pi * fundamental / Double(sampleRate)).truncatingRemainder(dividingBy: 2 * Double.pi)
                    let envelope = pow(sin(Double.pi * Double(index) / Double(length)), 2)
                    let value = voiced(phase: phase, fundamental: fundamental, formants: formants, sampleRate: sampleRate)
                    output[position + index] = Int16(clamping: Int((envelope * value * 2600).rounded()))
                }
                position += length
            }
            position += Int((0.15 + 0.45 * random.nextUnitInterval()) * Double(sampleRate))
        }
        return output
    }

    /// One sample of the harmonic source at `phase` (of the fundamental), each harmonic weighted
    /// by the two formant resonances; harmonics are made by the Chebyshev recurrence
    /// sin(kφ) = 2 cos φ · sin((k−1)φ) − sin((k−2)φ).
    private static func voiced(phase: Double, fundamental: Double, formants: (Double, Double), sampleRate: Int) -> Double {
        let limit = min(3600, Double(sampleRate) / 2 - 200)
        let twiceCosine = 2 * cos(phase)
        var previous = 0.0, current = sin(phase)
        var sum = 0.0
        var harmonic = 1
        while Double(harmonic) * fundamental < limit {
            let frequency = Double(harmonic) * fundamental
            let first = (frequency - formants.0) / 120, second = (frequency - formants.1) / 180
            let gain = 1 / (1 + first * first) + 0.5 / (1 + second * second) + 0.05
            sum += gain * current
            (previous, current) = (current, twiceCosine * current - previous)
            harmonic += 1
        }
        return sum
    }
}
