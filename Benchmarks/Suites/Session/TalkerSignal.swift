import Foundation

/// The microphone of every benchmarked session: a voiced-sounding signal made in code (partials
/// at 180, 360 and 1130 Hz under a 4 Hz syllabic envelope, about −20 dBov at its peaks, talking
/// 1.5 s then pausing 0.5 s), so the echo canceller, the denoiser and the jitter buffer's
/// pause-seeking work on something speech-like.
enum TalkerSignal {
    /// `seconds` of the signal at `sampleRate`, mono.
    static func samples(sampleRate: Int, seconds: Int) -> [Int16] {
        (0..<max(0, sampleRate * seconds)).map { index in
            let time = Double(index) / Double(sampleRate)
            let talking = time.truncatingRemainder(dividingBy: 2) < 1.5
            let envelope = talking ? pow(sin(Double.pi * 4 * time), 2) : 0
            let voiced =
                sin(2 * Double.pi * 180 * time) + 0.4 * sin(2 * Double.pi * 360 * time)
                + 0.3 * sin(2 * Double.pi * 1130 * time)
            return Int16((2400 * envelope * voiced).rounded())
        }
    }
}
