internal import CMediaShims
internal import COpus

/// An Opus encoder (RFC 6716) over libopus: one frame of PCM in, one packet out.
///
/// It is a final class because ``AudioEncoder`` is a copyable protocol; the libopus state itself
/// is owned by a non-copyable handle stored inside, destroyed exactly once when the encoder is
/// released. Encoding allocates nothing: libopus works in its own state and the caller's buffers.
/// Use an encoder from one thread at a time.
public final class OpusEncoder: AudioEncoder {
    /// A buffer of this many bytes holds any packet the encoder produces (libopus' recommended
    /// `max_data_bytes`).
    public static let maximumPacketBytes = 4000

    /// The settings in force.
    public private(set) var configuration: OpusEncoderConfiguration
    /// The PCM the encoder takes.
    public var format: AudioFormat { configuration.format }
    /// Always 48 000: RFC 7587 fixes Opus' RTP clock at 48 kHz whatever the PCM rate.
    public var rtpClockRate: Int { 48_000 }
    /// Samples per channel in one frame at ``format``'s rate.
    public var samplesPerFrame: Int { configuration.frameDuration.samplesPerChannel(sampleRate: format.sampleRate) }
    /// The encoder's lookahead in samples per channel at ``format``'s rate (`OPUS_GET_LOOKAHEAD`).
    public let lookaheadSamples: Int
    /// The frame plus the lookahead, in samples per channel at ``format``'s rate.
    public var algorithmicDelaySamples: Int { samplesPerFrame + lookaheadSamples }

    private let handle: OpusEncoderHandle

    /// Creates an encoder with `configuration`, throwing ``CodecError/unsupportedParameter(_:)``
    /// for settings libopus would reject and ``CodecError/library(call:code:message:)`` if
    /// libopus fails.
    public init(configuration: OpusEncoderConfiguration = OpusEncoderConfiguration()) throws(CodecError) {
        try configuration.validate()
        handle = try OpusEncoderHandle(
            sampleRate: configuration.format.sampleRate,
            channels: configuration.format.channels,
            application: configuration.application.libraryValue
        )
        self.configuration = configuration
        var lookahead: Int32 = 0
        try OpusLibrary.check(
            mb_opus_encoder_get(handle.pointer, OPUS_GET_LOOKAHEAD_REQUEST, &lookahead),
            call: "opus_encoder_ctl(OPUS_GET_LOOKAHEAD)"
        )
        lookaheadSamples = Int(lookahead)
        try applyAdjustableSettings(configuration)
    }

    /// Switches to `configuration`, which must keep the format and the application (fixed at
    /// creation); bitrate, complexity, bandwidth, FEC, loss, DTX and frame duration may change
    /// between any two frames.
    public func reconfigure(_ configuration: OpusEncoderConfiguration) throws(CodecError) {
        guard configuration.format == self.configuration.format,
            configuration.application == self.configuration.application
        else {
            throw .unsupportedParameter(
                "an Opus encoder's format and application are fixed at creation (\(self.configuration.format), \(self.configuration.application))"
            )
        }
        try configuration.validate()
        try applyAdjustableSettings(configuration)
        self.configuration = configuration
    }

    /// Encodes exactly one frame (`samplesPerFrame × channels` interleaved samples) into `payload`
    /// and returns the packet's length. With DTX on, a packet of 2 bytes or less is silence that
    /// need not be sent.
    public func encode(
        _ pcm: UnsafeBufferPointer<Int16>,
        into payload: UnsafeMutableRawBufferPointer
    ) throws(CodecError) -> Int {
        let frameSamples = samplesPerFrame
        let expected = frameSamples * format.channels
        guard pcm.count == expected, let samples = pcm.baseAddress else {
            throw .wrongFrameSize(expectedSamples: expected, actualSamples: pcm.count)
        }
        guard let packet = payload.baseAddress, !payload.isEmpty else {
            throw .outputTooSmall(requiredBytes: 1, availableBytes: payload.count)
        }
        let written = mb_opus_encode(
            handle.pointer, samples, Int32(frameSamples), packet, Int32(clamping: payload.count)
        )
        try OpusLibrary.check(written, call: "opus_encode")
        return Int(written)
    }

    /// The expected loss in-band FEC is sized for (``OpusEncoderConfiguration/expectedPacketLossPercent``)
    /// when FEC is on, else nil.
    public var forwardErrorCorrectionLossPercent: Int? {
        configuration.inbandFEC ? configuration.expectedPacketLossPercent : nil
    }

    /// With in-band FEC on, sets the expected loss to `percent` rounded and clamped to 0…100
    /// (`OPUS_SET_PACKET_LOSS_PERC`; at 0 libopus spends no bits on FEC); libopus is called
    /// only when the rounded value changes. Without FEC, or for a value that is not a number,
    /// nothing changes.
    public func adaptForwardErrorCorrection(toLossPercent percent: Double) {
        guard configuration.inbandFEC, !percent.isNaN else { return }
        let rounded = Int(min(max(percent, 0), 100).rounded())
        guard rounded != configuration.expectedPacketLossPercent,
            mb_opus_encoder_set(handle.pointer, OPUS_SET_PACKET_LOSS_PERC_REQUEST, Int32(rounded)) == OPUS_OK
        else { return }
        configuration.expectedPacketLossPercent = rounded
    }

    /// The range coder's final state after the last packet (`OPUS_GET_FINAL_RANGE`): equal in an
    /// encoder and a decoder that processed the same packet, and in two encoders fed the same
    /// input with the same settings.
    public var finalRange: UInt32 {
        get throws(CodecError) {
            var range: UInt32 = 0
            try OpusLibrary.check(
                mb_opus_encoder_final_range(handle.pointer, &range),
                call: "opus_encoder_ctl(OPUS_GET_FINAL_RANGE)"
            )
            return range
        }
    }

    /// Whether the last frame was coded as DTX silence (`OPUS_GET_IN_DTX`).
    public var isInDTX: Bool {
        get throws(CodecError) {
            var inDTX: Int32 = 0
            try OpusLibrary.check(
                mb_opus_encoder_get(handle.pointer, OPUS_GET_IN_DTX_REQUEST, &inDTX),
                call: "opus_encoder_ctl(OPUS_GET_IN_DTX)"
            )
            return inDTX != 0
        }
    }

    /// Forgets all history, as if just created with the current configuration (`OPUS_RESET_STATE`).
    public func reset() throws(CodecError) {
        try OpusLibrary.check(mb_opus_encoder_reset(handle.pointer), call: "opus_encoder_ctl(OPUS_RESET_STATE)")
    }

    /// Sends every setting that may change after creation.
    private func applyAdjustableSettings(_ configuration: OpusEncoderConfiguration) throws(CodecError) {
        try set(OPUS_SET_BITRATE_REQUEST, configuration.bitrate.libraryValue, "OPUS_SET_BITRATE")
        try set(OPUS_SET_COMPLEXITY_REQUEST, Int32(configuration.complexity), "OPUS_SET_COMPLEXITY")
        try set(OPUS_SET_MAX_BANDWIDTH_REQUEST, configuration.maxBandwidth.libraryValue, "OPUS_SET_MAX_BANDWIDTH")
        try set(OPUS_SET_VBR_REQUEST, configuration.bitrateMode == .constant ? 0 : 1, "OPUS_SET_VBR")
        try set(
            OPUS_SET_VBR_CONSTRAINT_REQUEST,
            configuration.bitrateMode == .constrainedVariable ? 1 : 0,
            "OPUS_SET_VBR_CONSTRAINT"
        )
        try set(OPUS_SET_INBAND_FEC_REQUEST, configuration.inbandFEC ? 1 : 0, "OPUS_SET_INBAND_FEC")
        try set(
            OPUS_SET_PACKET_LOSS_PERC_REQUEST,
            Int32(configuration.expectedPacketLossPercent),
            "OPUS_SET_PACKET_LOSS_PERC"
        )
        try set(OPUS_SET_DTX_REQUEST, configuration.discontinuousTransmission ? 1 : 0, "OPUS_SET_DTX")
    }

    private func set(_ request: Int32, _ value: Int32, _ name: String) throws(CodecError) {
        try OpusLibrary.check(mb_opus_encoder_set(handle.pointer, request, value), call: "opus_encoder_ctl(\(name))")
    }
}
