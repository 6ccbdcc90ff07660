import Foundation

/// The microphone of every benchmarked session: a voiced-sounding signal made in code (two
/// harmonic-rich partials at 180 and 1130 Hz under a 4 Hz syllabic envelope, about −20 dBov
/// at its peaks), so the echo canceller and the denoiser work on something speech-like.
enum TalkerSignal {
    /// `seconds` of the signal at `sampleRate`, mono.
    static func samples(sampleRate: Int, seconds: Int) -> [Int16] {
        (0..<max(0, sampleRate * seconds)).map { index in
            let time = Double(index) / Double(sampleRate)
            let envelope = pow(sin(Double.pi * 4 * time), 2)
            let voiced = sin(2 * Double.pi * 180 * time) + 0.4 * sin(2 * Double.pi * 360 * time)
                + 0.3 * sin(2 * Double.pi * 1130 * time)
            return Int16((2400 * envelope * voiced).rounded())
        }
    }
}
