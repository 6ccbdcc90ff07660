internal import CSpeexDSP

/// The settings of a ``Preprocessor``.
public struct PreprocessorConfiguration: Sendable, Hashable {
    /// Whether stationary noise is suppressed. Default on.
    public var denoise: Bool
    /// The most the denoiser attenuates noise, in dB (negative). Default −15 dB (speexdsp's).
    public var noiseSuppressionDecibels: Int
    /// Whether automatic gain control levels the speech. Default off.
    public var automaticGainControl: Bool
    /// The level AGC steers towards, as a sample amplitude (1 to 32 767). Default 8000 (speexdsp's),
    /// about −12 dBov.
    public var automaticGainControlLevel: Int
    /// The most residual echo is attenuated when an ``EchoCanceller`` is attached, in dB
    /// (negative), while the near end is silent. Default −40 dB (speexdsp's).
    public var echoSuppressionDecibels: Int
    /// The same while the near end talks too (double talk). Default −15 dB (speexdsp's).
    public var echoSuppressionActiveDecibels: Int

    /// A configuration with the defaults above, overridden by whatever is passed.
    public init(
        denoise: Bool = true,
        noiseSuppressionDecibels: Int = -15,
        automaticGainControl: Bool = false,
        automaticGainControlLevel: Int = 8000,
        echoSuppressionDecibels: Int = -40,
        echoSuppressionActiveDecibels: Int = -15
    ) {
        self.denoise = denoise
        self.noiseSuppressionDecibels = noiseSuppressionDecibels
        self.automaticGainControl = automaticGainControl
        self.automaticGainControlLevel = automaticGainControlLevel
        self.echoSuppressionDecibels = echoSuppressionDecibels
        self.echoSuppressionActiveDecibels = echoSuppressionActiveDecibels
    }
}

/// speexdsp's preprocessor for mono 10 or 20 ms frames: noise suppression, automatic gain
/// control, and residual echo suppression when an ``EchoCanceller`` is attached.
///
/// speexdsp's voice activity detector is a stub that marks nearly everything as speech, so this
/// wrapper leaves it off; use ``EnergyVoiceActivityDetector`` for DTX decisions. Processing
/// allocates nothing. Use a preprocessor from one thread at a time.
public final class Preprocessor {
    /// The sample rate of the frames.
    public let sampleRate: Int
    /// Samples in one frame (mono).
    public var samplesPerFrame: Int { frame.samplesPerChannel }
    /// The settings in force.
    public private(set) var configuration: PreprocessorConfiguration
    /// The echo canceller whose state feeds residual echo suppression, if any. Held strongly:
    /// speexdsp reads its state on every frame.
    public private(set) var echoCanceller: EchoCanceller?

    private let frame: ProcessingFrame
    private let handle: SpeexPreprocessHandle

    /// Creates a preprocessor for mono `sampleRate` frames of `frameMilliseconds` (10 or 20).
    public init(
        sampleRate: Int,
        frameMilliseconds: Int = 20,
        configuration: PreprocessorConfiguration = PreprocessorConfiguration()
    ) throws(CodecError) {
        frame = try ProcessingFrame("preprocessor", sampleRate: sampleRate, milliseconds: frameMilliseconds)
        self.sampleRate = sampleRate
        handle = try SpeexPreprocessHandle(frameSize: frame.samplesPerChannel, sampleRate: sampleRate)
        self.configuration = configuration
        try reconfigure(configuration)
    }

    /// Applies `configuration`, throwing ``CodecError/unsupportedParameter(_:)`` for a level out of
    /// range.
    public func reconfigure(_ configuration: PreprocessorConfiguration) throws(CodecError) {
        guard (1...32_767).contains(configuration.automaticGainControlLevel) else {
            throw .unsupportedParameter("AGC level \(configuration.automaticGainControlLevel) (expected 1 to 32767)")
        }
        for decibels in [
            configuration.noiseSuppressionDecibels, configuration.echoSuppressionDecibels,
            configuration.echoSuppressionActiveDecibels,
        ] where decibels > 0 {
            throw .unsupportedParameter("preprocessor suppression of \(decibels) dB (expected 0 or below)")
        }
        try set(SPEEX_PREPROCESS_SET_DENOISE, configuration.denoise ? 1 : 0, "SPEEX_PREPROCESS_SET_DENOISE")
        try set(SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, configuration.noiseSuppressionDecibels, "SPEEX_PREPROCESS_SET_NOISE_SUPPRESS")
        try set(SPEEX_PREPROCESS_SET_AGC, configuration.automaticGainControl ? 1 : 0, "SPEEX_PREPROCESS_SET_AGC")
        var level = Float(configuration.automaticGainControlLevel)
        try check(speex_preprocess_ctl(handle.pointer, SPEEX_PREPROCESS_SET_AGC_LEVEL, &level), "SPEEX_PREPROCESS_SET_AGC_LEVEL")
        try set(SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, configuration.echoSuppressionDecibels, "SPEEX_PREPROCESS_SET_ECHO_SUPPRESS")
        try set(
            SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, configuration.echoSuppressionActiveDecibels,
            "SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE"
        )
        self.configuration = configuration
    }

    /// Suppresses the residual echo `canceller` leaves (`SPEEX_PREPROCESS_SET_ECHO_STATE`). Run
    /// the preprocessor on the canceller's output, frame by frame. Throws
    /// ``CodecError/unsupportedParameter(_:)`` unless both use the same rate and frame length.
    public func attach(_ canceller: EchoCanceller) throws(CodecError) {
        guard canceller.sampleRate == sampleRate, canceller.frame == frame else {
            throw .unsupportedParameter(
                "echo canceller of \(canceller.samplesPerFrame) samples at \(canceller.sampleRate) Hz for a preprocessor of \(samplesPerFrame) samples at \(sampleRate) Hz"
            )
        }
        try check(speex_preprocess_ctl(handle.pointer, SPEEX_PREPROCESS_SET_ECHO_STATE, canceller.state), "SPEEX_PREPROCESS_SET_ECHO_STATE")
        echoCanceller = canceller
    }

    /// Stops residual echo suppression and releases the canceller.
    public func detachEchoCanceller() throws(CodecError) {
        try check(speex_preprocess_ctl(handle.pointer, SPEEX_PREPROCESS_SET_ECHO_STATE, nil), "SPEEX_PREPROCESS_SET_ECHO_STATE")
        echoCanceller = nil
    }

    /// Processes one frame in place. Throws ``CodecError/wrongFrameSize(expectedSamples:actualSamples:)``
    /// unless `pcm` is one frame.
    public func process(_ pcm: UnsafeMutableBufferPointer<Int16>) throws(CodecError) {
        try frame.check(pcm.count)
        _ = speex_preprocess_run(handle.pointer, pcm.baseAddress)
    }

    private func set(_ request: Int32, _ value: Int, _ name: String) throws(CodecError) {
        var argument = Int32(clamping: value)
        try check(speex_preprocess_ctl(handle.pointer, request, &argument), name)
    }

    private func check(_ status: Int32, _ name: String) throws(CodecError) {
        guard status == 0 else {
            throw .library(call: "speex_preprocess_ctl(\(name))", code: status, message: "request refused")
        }
    }
}
