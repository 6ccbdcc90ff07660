internal import CMediaShims
internal import COpus

/// An Opus decoder (RFC 6716) over libopus, with packet loss concealment and recovery of a lost
/// frame from the in-band FEC of the packet after it.
///
/// It is a final class because ``AudioDecoder`` is a copyable protocol; the libopus state itself
/// is owned by a non-copyable handle stored inside, destroyed exactly once when the decoder is
/// released. Decoding allocates nothing. Use a decoder from one thread at a time.
public final class OpusDecoder: AudioDecoder {
    /// The PCM the decoder produces: 8, 12, 16, 24 or 48 kHz, mono or stereo, whatever the
    /// packets were encoded at.
    public let format: AudioFormat
    /// Always 48 000 (RFC 7587).
    public var rtpClockRate: Int { 48_000 }
    /// Always true: Opus packets may carry the previous frame at a lower bitrate (LBRR).
    public var supportsForwardErrorCorrection: Bool { true }

    /// Whether `nextPayload` is a valid Opus packet whose first frame carries LBRR
    /// (``OpusPacketInfo/hasFEC``): an encoder adds it only when told to expect loss and the
    /// bitrate allows, and without it ``decodeFEC(from:samplesPerChannel:into:)`` conceals.
    public func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool {
        (try? OpusPacketInfo(nextPayload))?.hasFEC ?? false
    }
    /// libopus smooths the transition from its concealment back to decoded audio itself.
    public var blendsAfterConcealment: Bool { true }

    private let handle: OpusDecoderHandle

    /// Creates a decoder producing `format`, throwing ``CodecError/unsupportedParameter(_:)`` for a
    /// rate or channel count libopus cannot produce.
    public init(format: AudioFormat = AudioFormat(sampleRate: 48_000, channels: 1)) throws(CodecError) {
        try OpusLibrary.validate(format)
        self.format = format
        handle = try OpusDecoderHandle(sampleRate: format.sampleRate, channels: format.channels)
    }

    /// Decodes one packet into `pcm` and returns the samples written per channel. Throws
    /// ``CodecError/invalidPayload(_:)`` for an empty payload, ``CodecError/outputTooSmall(requiredBytes:availableBytes:)``
    /// when `pcm` cannot hold the packet's audio, and ``CodecError/library(call:code:message:)``
    /// for a corrupt packet.
    public func decode(
        _ payload: UnsafeRawBufferPointer,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        let packet = try nonEmptyPacket(payload)
        let samples = mb_opus_decoder_get_nb_samples(handle.pointer, packet, Int32(payload.count))
        try OpusLibrary.check(samples, call: "opus_decoder_get_nb_samples")
        let output = try outputBase(pcm, samplesPerChannel: Int(samples))
        return try run(packet, Int32(payload.count), output, Int32(samples), fec: false)
    }

    /// Conceals a lost frame: writes `samplesPerChannel` samples per channel of libopus' packet
    /// loss concealment into `pcm` and returns that count. The length must be a multiple of
    /// 2.5 ms up to 120 ms; conceal exactly the duration of the missing audio.
    public func decode(
        lost samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try OpusLibrary.validateConcealment(samplesPerChannel: samplesPerChannel, sampleRate: format.sampleRate)
        let output = try outputBase(pcm, samplesPerChannel: samplesPerChannel)
        return try run(nil, 0, output, Int32(samplesPerChannel), fec: false)
    }

    /// Recovers the frame lost just before `nextPayload` from the FEC that packet carries, writing
    /// `samplesPerChannel` samples per channel (the lost frame's duration) into `pcm`. When the
    /// packet carries no FEC (see ``OpusPacketInfo/hasFEC``), libopus conceals instead. Decode
    /// `nextPayload` itself afterwards, as usual.
    public func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer,
        samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try OpusLibrary.validateConcealment(samplesPerChannel: samplesPerChannel, sampleRate: format.sampleRate)
        let packet = try nonEmptyPacket(nextPayload)
        let output = try outputBase(pcm, samplesPerChannel: samplesPerChannel)
        return try run(packet, Int32(nextPayload.count), output, Int32(samplesPerChannel), fec: true)
    }

    /// The range decoder's final state after the last packet (`OPUS_GET_FINAL_RANGE`); equals the
    /// encoder's for the same packet when the stream is intact.
    public var finalRange: UInt32 {
        get throws(CodecError) {
            var range: UInt32 = 0
            try OpusLibrary.check(
                mb_opus_decoder_final_range(handle.pointer, &range),
                call: "opus_decoder_ctl(OPUS_GET_FINAL_RANGE)"
            )
            return range
        }
    }

    /// Samples per channel of the last packet decoded or concealed (`OPUS_GET_LAST_PACKET_DURATION`),
    /// a good length for concealing the next loss.
    public var lastPacketSamplesPerChannel: Int {
        get throws(CodecError) {
            var duration: Int32 = 0
            try OpusLibrary.check(
                mb_opus_decoder_get(handle.pointer, OPUS_GET_LAST_PACKET_DURATION_REQUEST, &duration),
                call: "opus_decoder_ctl(OPUS_GET_LAST_PACKET_DURATION)"
            )
            return Int(duration)
        }
    }

    /// Forgets all history, as if just created (`OPUS_RESET_STATE`).
    public func reset() throws(CodecError) {
        try OpusLibrary.check(mb_opus_decoder_reset(handle.pointer), call: "opus_decoder_ctl(OPUS_RESET_STATE)")
    }

    private func nonEmptyPacket(_ payload: UnsafeRawBufferPointer) throws(CodecError) -> UnsafeRawPointer {
        guard let packet = payload.baseAddress, !payload.isEmpty else {
            throw .invalidPayload("empty Opus packet")
        }
        guard payload.count <= Int(Int32.max) else {
            throw .invalidPayload("Opus packet of \(payload.count) bytes is too long")
        }
        return packet
    }

    private func outputBase(
        _ pcm: UnsafeMutableBufferPointer<Int16>,
        samplesPerChannel: Int
    ) throws(CodecError) -> UnsafeMutablePointer<Int16> {
        let required = samplesPerChannel * format.channels
        guard pcm.count >= required, let base = pcm.baseAddress else {
            throw .outputTooSmall(
                requiredBytes: required * MemoryLayout<Int16>.size,
                availableBytes: pcm.count * MemoryLayout<Int16>.size
            )
        }
        return base
    }

    private func run(
        _ packet: UnsafeRawPointer?,
        _ length: Int32,
        _ output: UnsafeMutablePointer<Int16>,
        _ samplesPerChannel: Int32,
        fec: Bool
    ) throws(CodecError) -> Int {
        let decoded = mb_opus_decode(handle.pointer, packet, length, output, samplesPerChannel, fec ? 1 : 0)
        try OpusLibrary.check(decoded, call: "opus_decode")
        return Int(decoded)
    }
}
