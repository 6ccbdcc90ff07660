/// The frame a speexdsp processor works on: 10 or 20 ms of mono or interleaved PCM at one of the
/// telephony rates. Validated once, at creation, so every frame is then a length check.
struct ProcessingFrame: Sendable, Hashable {
    /// The sample rates the speexdsp wrappers accept.
    static let sampleRates: Set<Int> = [8000, 16_000, 24_000, 32_000, 48_000]
    /// The frame durations the speexdsp wrappers accept, in milliseconds.
    static let durations: Set<Int> = [10, 20]

    /// Samples per channel in one frame.
    let samplesPerChannel: Int
    /// Interleaved channels.
    let channels: Int

    /// Interleaved samples in one frame.
    var sampleCount: Int { samplesPerChannel * channels }

    /// Throws ``CodecError/unsupportedParameter(_:)`` unless `sampleRate` and `milliseconds` are
    /// among the accepted values; `what` names the processor in the message.
    init(_ what: String, sampleRate: Int, milliseconds: Int, channels: Int = 1) throws(CodecError) {
        guard Self.sampleRates.contains(sampleRate) else {
            throw .unsupportedParameter("\(what) sample rate \(sampleRate) Hz (expected 8000, 16000, 24000, 32000 or 48000)")
        }
        guard Self.durations.contains(milliseconds) else {
            throw .unsupportedParameter("\(what) frame of \(milliseconds) ms (expected 10 or 20)")
        }
        guard channels == 1 || channels == 2 else {
            throw .unsupportedParameter("\(what) channel count \(channels) (expected 1 or 2)")
        }
        samplesPerChannel = sampleRate * milliseconds / 1000
        self.channels = channels
    }

    /// Throws ``CodecError/wrongFrameSize(expectedSamples:actualSamples:)`` unless `count` is one frame.
    func check(_ count: Int) throws(CodecError) {
        guard count == sampleCount else {
            throw .wrongFrameSize(expectedSamples: sampleCount, actualSamples: count)
        }
    }
}
