/// Encodes 8 kHz mono PCM into G.711 payloads (RTP `PCMU` or `PCMA`), one frame at a time.
///
/// One byte per sample and no lookahead: the algorithmic delay is the frame itself.
public struct G711Encoder: AudioEncoder, Sendable {
    /// The companding law.
    public let law: G711Law
    /// Samples in one frame: 8 per millisecond.
    public let samplesPerFrame: Int

    /// An encoder of `frameDurationMilliseconds` frames (10, 20, 30, 40, 50 or 60 ms).
    public init(law: G711Law, frameDurationMilliseconds: Int = 20) throws(CodecError) {
        guard G711Format.frameDurations.contains(frameDurationMilliseconds) else {
            throw .unsupportedParameter(
                "G.711 frame duration \(frameDurationMilliseconds) ms (supported: \(G711Format.frameDurations) ms)"
            )
        }
        self.law = law
        samplesPerFrame = G711Format.audio.samplesPerChannel(milliseconds: frameDurationMilliseconds)
    }

    /// 8 kHz mono.
    public var format: AudioFormat { G711Format.audio }
    /// 8000.
    public var rtpClockRate: Int { G711Format.rtpClockRate }
    /// One frame: G.711 has no lookahead.
    public var algorithmicDelaySamples: Int { samplesPerFrame }

    /// Encodes one frame into `payload` (one byte per sample) and returns ``samplesPerFrame``.
    @inlinable
    public mutating func encode(
        _ pcm: UnsafeBufferPointer<Int16>,
        into payload: UnsafeMutableRawBufferPointer
    ) throws(CodecError) -> Int {
        guard pcm.count == samplesPerFrame else {
            throw .wrongFrameSize(expectedSamples: samplesPerFrame, actualSamples: pcm.count)
        }
        guard payload.count >= samplesPerFrame else {
            throw .outputTooSmall(requiredBytes: samplesPerFrame, availableBytes: payload.count)
        }
        law.encode(pcm, into: payload.bindMemory(to: UInt8.self))
        return samplesPerFrame
    }
}
