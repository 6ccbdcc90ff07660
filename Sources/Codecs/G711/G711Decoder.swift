/// Decodes G.711 payloads (RTP `PCMU` or `PCMA`) into 8 kHz mono PCM and conceals lost frames
/// with a ``G711PacketLossConcealer`` (Appendix I unless asked otherwise).
///
/// A payload of any length decodes to one sample per byte.
public struct G711Decoder: AudioDecoder, Sendable {
    /// The companding law.
    public let law: G711Law
    /// Keeps the history and fills lost frames.
    public private(set) var concealer: G711PacketLossConcealer

    /// A decoder for `law` that conceals losses with `concealment`.
    public init(law: G711Law, concealment: G711ConcealmentMethod = .appendixI) {
        self.law = law
        concealer = G711PacketLossConcealer(method: concealment)
    }

    /// 8 kHz mono.
    public var format: AudioFormat { G711Format.audio }
    /// 8000.
    public var rtpClockRate: Int { G711Format.rtpClockRate }
    /// G.711 carries no redundancy.
    public var supportsForwardErrorCorrection: Bool { false }
    /// Appendix I blends the first frame after a loss into the concealment; the baselines
    /// do not.
    public var blendsAfterConcealment: Bool { concealer.method == .appendixI }

    /// Decodes `payload` (one sample per byte) into `pcm`; after a loss, the concealment is
    /// blended into the start of this frame. Returns the samples written.
    public mutating func decode(
        _ payload: UnsafeRawBufferPointer,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        guard !payload.isEmpty else {
            throw .invalidPayload("empty G.711 payload")
        }
        guard pcm.count >= payload.count else {
            throw .outputTooSmall(requiredBytes: payload.count * 2, availableBytes: pcm.count * 2)
        }
        let frame = UnsafeMutableBufferPointer(rebasing: pcm[..<payload.count])
        law.decode(payload.assumingMemoryBound(to: UInt8.self), into: frame)
        concealer.receive(frame)
        return payload.count
    }

    /// Conceals a lost frame of `samplesPerChannel` samples into `pcm`.
    public mutating func decode(
        lost samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        guard samplesPerChannel > 0 else {
            throw .unsupportedParameter("a lost frame of \(samplesPerChannel) samples")
        }
        guard pcm.count >= samplesPerChannel else {
            throw .outputTooSmall(requiredBytes: samplesPerChannel * 2, availableBytes: pcm.count * 2)
        }
        concealer.conceal(into: UnsafeMutableBufferPointer(rebasing: pcm[..<samplesPerChannel]))
        return samplesPerChannel
    }

    /// G.711 has no FEC: conceals the lost frame instead.
    public mutating func decodeFEC(
        from nextPayload: UnsafeRawBufferPointer,
        samplesPerChannel: Int,
        into pcm: UnsafeMutableBufferPointer<Int16>
    ) throws(CodecError) -> Int {
        try decode(lost: samplesPerChannel, into: pcm)
    }
}
