/// Generates comfort noise: gently low-passed pseudo-random noise at a mean magnitude, from a
/// fixed-seed generator so the buffer stays deterministic.
struct ComfortNoise {
    private var state: UInt32 = 0x1234_5678
    private var previous: Int32 = 0

    /// Adds noise of mean magnitude `level`, scaled by `gain` (0…1), to `frames` frames of
    /// `samples` (interleaved, `channels` per frame), or writes it when `replace` is set.
    mutating func render(
        into samples: UnsafeMutableBufferPointer<Int16>, frames: Int, channels: Int, level: Double, gain: Double,
        replace: Bool
    ) {
        // Uniform noise in ±r has mean magnitude r/2; the one-pole smoothing below halves it again.
        let amplitude = Int32(min(max(level * 4 * gain, 0), 8000))
        for frame in 0..<frames {
            state = state &* 1_664_525 &+ 1_013_904_223
            let white = amplitude == 0 ? 0 : Int32(truncatingIfNeeded: state >> 16) % (2 * amplitude + 1) - amplitude
            previous = (previous + white) / 2
            for channel in 0..<channels {
                let index = frame * channels + channel
                let base = replace ? 0 : Int32(samples[index])
                samples[index] = Int16(clamping: base + previous)
            }
        }
    }
}
