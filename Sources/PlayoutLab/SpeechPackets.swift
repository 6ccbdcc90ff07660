import Jitter
import Codecs

/// Speech as the packets of a network trace carry it, so that real speech can be played through
/// any jitter buffer: the speech (8 kHz mono) cut into frames of ``samplesPerFrame`` samples,
/// each encoded as PCMU (G.711 µ-law), and handed out by RTP timestamp as ``SpeechFrameMap``
/// assigns frames to packets (the k-th packet sent carries frame k, so DTX removes silence,
/// not speech).
///
/// `mediabench bench jitter --audio` plays these packets through every buffer, each decoded and
/// concealed by the same ``makeDecoder()``, so only the buffering policy differs.
/// (`mediabench simulate --audio --codec` plays speech encoded by any codec through ours.)
public struct SpeechPackets: Sendable {
    /// Samples per packet.
    public let samplesPerFrame: Int
    /// Which frame each packet carries.
    public let frameMap: SpeechFrameMap
    /// The encoded frames, in speech order.
    public let payloads: [[UInt8]]

    /// Cuts `speech` (8 kHz mono) into whole frames of `samplesPerFrame` samples (a partial last
    /// frame is dropped) and encodes each one, for the packets `frameMap` describes; `nil` when
    /// the speech is shorter than one frame.
    public init?(speech: [Int16], frameMap: SpeechFrameMap) {
        let samplesPerFrame = frameMap.samplesPerFrame
        guard speech.count >= samplesPerFrame else { return nil }
        self.samplesPerFrame = samplesPerFrame
        self.frameMap = frameMap
        payloads = stride(from: 0, through: speech.count - samplesPerFrame, by: samplesPerFrame).map { start in
            [UInt8](unsafeUninitializedCapacity: samplesPerFrame) { codes, count in
                speech[start..<(start + samplesPerFrame)].withUnsafeBufferPointer { Self.law.encode($0, into: codes) }
                count = samplesPerFrame
            }
        }
    }

    /// The companding law of the payloads.
    public static let law = G711Law.muLaw

    /// The decoder every buffer's playout is rendered with: G.711 µ-law with Appendix I
    /// concealment.
    public func makeDecoder() -> G711Decoder {
        G711Decoder(law: Self.law, concealment: .appendixI)
    }

    /// The payload of the packet with this RTP timestamp.
    public func payload(forTimestamp rtpTimestamp: UInt64) -> [UInt8] {
        payloads[frameMap.frame(forTimestamp: rtpTimestamp) % payloads.count]
    }
}

extension PlayoutSimulator {
    /// What a listener hears from our buffer, and the playout that made it: replays `packets`
    /// carrying `speech` (see ``render(_:decoder:payload:)``).
    public func render(_ packets: [SimulatedPacket], speech: SpeechPackets) -> RenderedPlayout {
        render(packets, decoder: speech.makeDecoder()) { speech.payload(forTimestamp: $0.rtpTimestamp) }
    }
}
