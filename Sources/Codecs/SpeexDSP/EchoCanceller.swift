internal import CSpeexDSP

/// An acoustic echo canceller over speexdsp's multidelay adaptive filter (MDF), for mono 10 or
/// 20 ms frames.
///
/// Give it each captured (microphone) frame together with the frame that was played to the
/// loudspeaker at the same time; it subtracts its running estimate of the echo path applied to the
/// playback and returns the near-end speech. The filter converges over a few seconds of far-end
/// speech. For residual echo suppression, attach the canceller to a ``Preprocessor`` with
/// ``Preprocessor/attach(_:)`` and run the preprocessor on this canceller's output.
/// Cancelling allocates nothing. Use it from one thread at a time.
public final class EchoCanceller {
    /// The echo tails the canceller accepts, in milliseconds.
    public static let tailMilliseconds = 10...1000

    /// The sample rate of both signals.
    public let sampleRate: Int
    /// Samples in one frame (mono).
    public var samplesPerFrame: Int { frame.samplesPerChannel }
    /// The adaptive filter's length in samples: the longest echo path it can model.
    public let filterLengthSamples: Int

    let frame: ProcessingFrame
    private let handle: SpeexEchoHandle

    /// Creates a canceller for mono `sampleRate` frames of `frameMilliseconds` (10 or 20) that
    /// models echo paths up to `tailMilliseconds` long (default 200 ms, a typical room and device
    /// path; longer tails converge more slowly). Throws ``CodecError/unsupportedParameter(_:)``
    /// for other values.
    public init(sampleRate: Int, frameMilliseconds: Int = 20, tailMilliseconds: Int = 200) throws(CodecError) {
        frame = try ProcessingFrame("echo canceller", sampleRate: sampleRate, milliseconds: frameMilliseconds)
        guard Self.tailMilliseconds.contains(tailMilliseconds) else {
            throw .unsupportedParameter("echo canceller tail of \(tailMilliseconds) ms (expected 10 to 1000)")
        }
        self.sampleRate = sampleRate
        filterLengthSamples = sampleRate * tailMilliseconds / 1000
        handle = try SpeexEchoHandle(frameSize: frame.samplesPerChannel, filterLength: filterLengthSamples)
        var rate = Int32(sampleRate)
        let status = speex_echo_ctl(handle.pointer, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
        guard status == 0 else {
            throw .library(call: "speex_echo_ctl(SPEEX_ECHO_SET_SAMPLING_RATE)", code: status, message: "request refused")
        }
    }

    /// Removes the echo of `playback` from `captured` and writes the result to `output`; all
    /// three are one frame, and `output` must not overlap the inputs. Throws ``CodecError/wrongFrameSize(expectedSamples:actualSamples:)``
    /// for any other length.
    public func cancel(
        captured: UnsafeBufferPointer<Int16>,
        playback: UnsafeBufferPointer<Int16>,
        into output: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) {
        try frame.check(captured.count)
        try frame.check(playback.count)
        try frame.check(output.count)
        speex_echo_cancellation(handle.pointer, captured.baseAddress, playback.baseAddress, output.baseAddress)
    }

    /// Forgets the learned echo path (`speex_echo_state_reset`).
    public func reset() {
        speex_echo_state_reset(handle.pointer)
    }

    /// The speexdsp state, for the preprocessor's residual echo suppression.
    var state: UnsafeMutableRawPointer { UnsafeMutableRawPointer(handle.pointer) }
}
