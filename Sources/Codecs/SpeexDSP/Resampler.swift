internal import CSpeexDSP

/// A streaming sample-rate converter over speexdsp's resampler, fed 10 or 20 ms frames of 16-bit
/// PCM (interleaved when stereo) between any two of 8, 16, 24, 32 and 48 kHz.
///
/// It keeps its filter history between frames, so consecutive frames join seamlessly; the output
/// lags the input by ``inputLatencySamples`` input samples (the filter's half length). Every frame
/// of input yields exactly one frame of output, because each supported rate is a multiple of
/// 8 kHz and a 10 ms frame holds a whole number of periods of every rate ratio. Processing
/// allocates nothing. Use a resampler from one thread at a time.
public final class Resampler {
    /// The quality speexdsp calls "VoIP" (3): little CPU, good enough for speech.
    public static let voipQuality = 3
    /// The range of speexdsp qualities: 0 is cheapest, 10 best.
    public static let qualities = 0...10

    /// The PCM taken in.
    public let inputFormat: AudioFormat
    /// The PCM given out: ``inputFormat``'s channels at the output rate.
    public let outputFormat: AudioFormat
    /// The speexdsp quality in use, 0 to 10.
    public let quality: Int
    /// Samples per channel in one input frame.
    public var inputSamplesPerFrame: Int { input.samplesPerChannel }
    /// Samples per channel in one output frame.
    public var outputSamplesPerFrame: Int { output.samplesPerChannel }
    /// How far the output lags the input, in input samples per channel
    /// (`speex_resampler_get_input_latency`).
    public let inputLatencySamples: Int
    /// The same lag in output samples per channel (`speex_resampler_get_output_latency`).
    public let outputLatencySamples: Int

    private let input: ProcessingFrame
    private let output: ProcessingFrame
    private let handle: SpeexResamplerHandle

    /// Creates a resampler from `inputFormat` to `outputSampleRate` at `quality` (0–10), for frames
    /// of `frameMilliseconds` (10 or 20). Throws ``CodecError/unsupportedParameter(_:)`` for any
    /// other rate, channel count, quality or duration.
    public init(
        from inputFormat: AudioFormat,
        toSampleRate outputSampleRate: Int,
        quality: Int = Resampler.voipQuality,
        frameMilliseconds: Int = 20
    ) throws(CodecError) {
        guard Self.qualities.contains(quality) else {
            throw .unsupportedParameter("resampler quality \(quality) (expected 0 to 10)")
        }
        input = try ProcessingFrame(
            "resampler", sampleRate: inputFormat.sampleRate, milliseconds: frameMilliseconds,
            channels: inputFormat.channels
        )
        output = try ProcessingFrame(
            "resampler", sampleRate: outputSampleRate, milliseconds: frameMilliseconds,
            channels: inputFormat.channels
        )
        handle = try SpeexResamplerHandle(
            channels: inputFormat.channels, inputRate: inputFormat.sampleRate,
            outputRate: outputSampleRate, quality: quality
        )
        self.inputFormat = inputFormat
        outputFormat = AudioFormat(sampleRate: outputSampleRate, channels: inputFormat.channels)
        self.quality = quality
        inputLatencySamples = Int(speex_resampler_get_input_latency(handle.pointer))
        outputLatencySamples = Int(speex_resampler_get_output_latency(handle.pointer))
    }

    /// Resamples one input frame into `pcm` and returns the samples written per channel
    /// (``outputSamplesPerFrame``). Throws ``CodecError/wrongFrameSize(expectedSamples:actualSamples:)``
    /// unless `frame` is one input frame, and ``CodecError/outputTooSmall(requiredBytes:availableBytes:)``
    /// when `pcm` cannot hold one output frame.
    public func process(
        _ frame: UnsafeBufferPointer<Int16>,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try input.check(frame.count)
        guard pcm.count >= output.sampleCount, let outputBase = pcm.baseAddress else {
            throw .outputTooSmall(
                requiredBytes: output.sampleCount * MemoryLayout<Int16>.size,
                availableBytes: pcm.count * MemoryLayout<Int16>.size
            )
        }
        var consumed = UInt32(input.samplesPerChannel)
        var produced = UInt32(pcm.count / output.channels)
        let status = speex_resampler_process_interleaved_int(
            handle.pointer, frame.baseAddress, &consumed, outputBase, &produced
        )
        guard status == 0 else {
            throw .library(
                call: "speex_resampler_process_interleaved_int", code: status,
                message: String(cString: speex_resampler_strerror(status))
            )
        }
        return Int(produced)
    }

    /// Clears the filter history, as before the first frame (`speex_resampler_reset_mem`).
    public func reset() {
        speex_resampler_reset_mem(handle.pointer)
    }
}
