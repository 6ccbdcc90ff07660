/// How a capture or playback stream is opened. The defaults suit a wideband call.
public struct AudioStreamConfiguration: Sendable, Hashable {
    /// Samples per second per channel: 8000, 16000 or 48000 (others are passed to ALSA as asked).
    /// Default 16000.
    public var sampleRate: Int
    /// Interleaved channels: 1 or 2. Default 1.
    public var channels: Int
    /// The period (one wake-up of the audio thread) in milliseconds. Default 10.
    public var periodMilliseconds: Int
    /// Periods in the device buffer; more survives scheduling hiccups, fewer lowers latency.
    /// Default 4 (40 ms with 10 ms periods).
    public var bufferPeriods: Int
    /// Whether ALSA may resample when the hardware lacks the rate. Default true.
    public var allowsResampling: Bool

    /// A configuration with the given values; every parameter has the documented default.
    public init(
        sampleRate: Int = 16000,
        channels: Int = 1,
        periodMilliseconds: Int = 10,
        bufferPeriods: Int = 4,
        allowsResampling: Bool = true
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodMilliseconds = periodMilliseconds
        self.bufferPeriods = bufferPeriods
        self.allowsResampling = allowsResampling
    }

    /// Frames (samples per channel) in one period.
    public var framesPerPeriod: Int { sampleRate * periodMilliseconds / 1000 }
}
