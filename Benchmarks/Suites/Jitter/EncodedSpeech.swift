import Codecs
import PlayoutLab

/// Speech encoded by a real codec, one frame per packet, as the packets of a network trace
/// carry it: ``SpeechFrameMap`` assigns frames to packets (the k-th packet sent carries frame k,
/// cycling when the trace outlasts the speech).
///
/// ``SpeechPackets`` is the G.711 µ-law special case that every buffer of the jitter benchmark
/// shares; this carries whatever the encoder makes (Opus with its in-band FEC, say), for
/// `mediabench simulate --codec` to replay through our buffer and the matching decoder.
public struct EncodedSpeech: Sendable {
    /// Which frame each packet carries (its timestamps count at the encoder's RTP clock rate).
    public let frameMap: SpeechFrameMap
    /// The encoded frames, in speech order.
    public let payloads: [[UInt8]]

    /// The largest payload any codec here produces for one frame (Opus' own limit is 1275
    /// bytes per frame; 60 ms of G.711 is 480).
    private static let payloadCapacity = 1500

    /// Cuts `speech` (interleaved PCM in `encoder.format`) into whole frames of the encoder (a
    /// partial last frame is dropped) and encodes each in turn; `nil` when the speech is shorter
    /// than one frame. Throws what the encoder throws.
    public init?<Encoder: AudioEncoder>(
        speech: [Int16], encoder: inout Encoder, frameMap: SpeechFrameMap
    ) throws(CodecError) {
        let frameSamples = encoder.samplesPerFrame * encoder.format.channels
        let timestamps = encoder.samplesPerFrame * encoder.rtpClockRate / max(encoder.format.sampleRate, 1)
        guard frameSamples > 0, timestamps > 0, speech.count >= frameSamples else { return nil }
        self.frameMap = frameMap
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(speech.count / frameSamples)
        var scratch = [UInt8](repeating: 0, count: Self.payloadCapacity)
        for start in stride(from: 0, through: speech.count - frameSamples, by: frameSamples) {
            let written = try speech[start..<(start + frameSamples)].withUnsafeBufferPointer { pcm in
                scratch.withUnsafeMutableBytes { payload in
                    Result { () throws(CodecError) in try encoder.encode(pcm, into: payload) }
                }
            }.get()
            payloads.append(Array(scratch[0..<written]))
        }
        self.payloads = payloads
    }

    /// The payload of the packet with this RTP timestamp.
    public func payload(forTimestamp rtpTimestamp: UInt64) -> [UInt8] {
        payloads[frameMap.frame(forTimestamp: rtpTimestamp) % payloads.count]
    }
}
