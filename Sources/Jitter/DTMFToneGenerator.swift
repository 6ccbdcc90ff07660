#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The dual tone of a DTMF event (RFC 4733 events 0–15, ITU-T Q.23 frequencies), rendered
/// phase-continuously, as a receiver plays the digits its peer sent as events in place of audio.
///
/// The event's volume is its power in −dBm0 (RFC 4733 §2.3.4), shared equally by the two
/// frequencies. 0 dBm0 is a sine of peak 22 650 in 16-bit samples: G.711's full-scale sine,
/// peak 32 636 (8159 in its 14-bit range), is +3.17 dBm0. Other events play silence.
struct DTMFToneGenerator {
    /// The low-group (row) and high-group (column) frequencies of Q.23's keypad, in Hz.
    static let rowFrequencies = [697.0, 770.0, 852.0, 941.0]
    static let columnFrequencies = [1209.0, 1336.0, 1477.0, 1633.0]
    /// The peak of a 0 dBm0 sine in 16-bit samples.
    static let zeroDBm0Peak = 22_650.0

    private var lowPhase = 0.0
    private var highPhase = 0.0

    /// The keypad position of RFC 4733 event `event` (0–9, 10 `*`, 11 `#`, 12–15 A–D), or nil.
    static func frequencies(ofEvent event: UInt8) -> (low: Double, high: Double)? {
        let key: (row: Int, column: Int)
        switch event {
        case 0: key = (3, 1)
        case 1...9: key = (Int(event - 1) / 3, Int(event - 1) % 3)
        case 10: key = (3, 0)
        case 11: key = (3, 2)
        case 12...15: key = (Int(event - 12), 3)
        default: return nil
        }
        return (rowFrequencies[key.row], columnFrequencies[key.column])
    }

    /// Writes `frames` frames of `event`'s tone at `volume` (−dBm0) and `sampleRate` into
    /// `output`, the same sample on each of `channels`, continuing the phase of the last call.
    mutating func render(
        event: UInt8, volume: UInt8, sampleRate: Int, channels: Int, frames: Int, into output: UnsafeMutableBufferPointer<Int16>
    ) {
        let frames = min(frames, output.count / max(channels, 1))
        guard let tone = Self.frequencies(ofEvent: event), sampleRate > 0 else {
            for index in 0..<(frames * channels) { output[index] = 0 }
            return
        }
        // Each frequency carries half the event's power: 3 dB below it.
        let peak = Self.zeroDBm0Peak * pow(10, (-Double(volume) - 3) / 20)
        let lowStep = 2 * Double.pi * tone.low / Double(sampleRate)
        let highStep = 2 * Double.pi * tone.high / Double(sampleRate)
        for frame in 0..<frames {
            let value = peak * (sin(lowPhase) + sin(highPhase))
            let sample = Int16(max(min(value.rounded(), 32767), -32768))
            for channel in 0..<channels { output[frame * channels + channel] = sample }
            lowPhase = (lowPhase + lowStep).truncatingRemainder(dividingBy: 2 * Double.pi)
            highPhase = (highPhase + highStep).truncatingRemainder(dividingBy: 2 * Double.pi)
        }
    }
}
