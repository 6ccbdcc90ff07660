/// The shape of the PCM a codec consumes or produces: 16-bit signed samples, interleaved
/// when there is more than one channel.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Interleaved channels (1 = mono, 2 = stereo).
    public var channels: Int

    /// A format of `sampleRate` Hz with `channels` interleaved channels.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The number of samples per channel in `milliseconds` of audio.
    public func samplesPerChannel(milliseconds: Int) -> Int {
        sampleRate * milliseconds / 1000
    }

    /// For example "48000 Hz stereo".
    public var description: String {
        "\(sampleRate) Hz " + (channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")
    }
}

/// Encodes one frame of PCM at a time into a caller-provided buffer.
///
/// An encoder is used by one thread at a time; the send path owns it.
public protocol AudioEncoder {
    /// The PCM the encoder takes.
    var format: AudioFormat { get }
    /// The RTP timestamp rate of the payload (8000 for G.711, 48000 for Opus).
    var rtpClockRate: Int { get }
    /// Samples per channel in one frame at ``format``'s rate.
    var samplesPerFrame: Int { get }
    /// Algorithmic delay in samples per channel at ``format``'s rate: the frame plus any lookahead.
    var algorithmicDelaySamples: Int { get }

    /// Encodes exactly one frame (`samplesPerFrame × channels` interleaved samples) into
    /// `payload` and returns the number of bytes written.
    mutating func encode(
        _ pcm: UnsafeBufferPointer<Int16>,
        into payload: UnsafeMutableRawBufferPointer
    ) throws(CodecError) -> Int

    /// The packet loss, in percent, the encoder currently sizes its in-band forward error
    /// correction for; nil when it sends none that depends on the loss (the default).
    var forwardErrorCorrectionLossPercent: Int? { get }

    /// Sizes the in-band forward error correction for `percent` packet loss, the loss the
    /// receiver reports (RTCP): more redundancy as the loss rises, none at 0 %. Called between
    /// two frames; it allocates nothing and does nothing for an encoder without such
    /// redundancy (the default).
    mutating func adaptForwardErrorCorrection(toLossPercent percent: Double)
}

extension AudioEncoder {
    /// An encoder sends no loss-dependent redundancy unless it says so.
    public var forwardErrorCorrectionLossPercent: Int? { nil }

    /// An encoder without loss-dependent redundancy has nothing to adapt.
    public mutating func adaptForwardErrorCorrection(toLossPercent percent: Double) {}
}

/// Decodes payloads into caller-provided PCM and conceals lost frames.
///
/// A decoder is used by one thread at a time; the receive path owns it.
public protocol AudioDecoder {
    /// The PCM the decoder produces.
    var format: AudioFormat { get }
    /// The RTP timestamp rate of the payload.
    var rtpClockRate: Int { get }
    /// Whether `decodeFEC` can recover a lost frame from the packet after it.
    var supportsForwardErrorCorrection: Bool { get }
    /// Whether `nextPayload` really carries the frame before it, so `decodeFEC` recovers that
    /// frame rather than concealing it. By default ``supportsForwardErrorCorrection``; a codec
    /// whose packets carry redundancy only sometimes (Opus LBRR) reads the packet.
    func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool
    /// Whether the first frame decoded after concealment is blended into the concealed signal
    /// by the decoder itself (G.711 Appendix I and Opus do), so a caller must not cross-fade it
    /// again. `false` by default.
    var blendsAfterConcealment: Bool { get }

    /// Decodes one payload into `pcm` and returns the samples written per channel.
    mutating func decode(
        _ payload: UnsafeRawBufferPointer,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int

    /// Conceals `samplesPerChannel` samples of a lost frame into `pcm` and returns the samples
    /// written per channel.
    mutating func decode(
        lost samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int

    /// Recovers the frame lost just before `nextPayload` from the redundancy it carries, writing
    /// `samplesPerChannel` samples per channel; returns the samples written per channel. Codecs
    /// without FEC conceal instead.
    mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer,
        samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int
}

extension AudioDecoder {
    /// A decoder blends nothing after concealment unless it says so.
    public var blendsAfterConcealment: Bool { false }

    /// Every packet of a codec with FEC carries it, unless the codec says otherwise.
    public func carriesForwardErrorCorrection(in nextPayload: UnsafeRawBufferPointer) -> Bool {
        supportsForwardErrorCorrection
    }
}
