/// 16-bit PCM audio as a WAV file holds it: a format and interleaved samples.
///
/// Read it with ``init(parsing:)-(UnsafeRawBufferPointer)`` (from bytes in memory) or ``init(contentsOfFile:)``; write it
/// with ``serialized()`` or ``write(toFile:)``. The reader takes RIFF/WAVE files with 16-bit PCM
/// in mono or stereo at any rate, in a plain `WAVE_FORMAT_PCM` or a `WAVE_FORMAT_EXTENSIBLE`
/// `fmt ` chunk, and skips any other chunk (`LIST`, `fact`, `cue `, …) with its padding byte.
public struct WAVAudio: Sendable, Equatable {
    /// Sample rate and channel count.
    public var format: AudioFormat
    /// The samples, interleaved when stereo.
    public var samples: [Int16]

    /// Audio of `format` holding `samples` (interleaved when stereo).
    public init(format: AudioFormat, samples: [Int16]) {
        self.format = format
        self.samples = samples
    }

    /// Samples per channel.
    public var frameCount: Int {
        samples.count / max(1, format.channels)
    }
}
