import Codecs
import Jitter
import PlayoutLab

extension JitterBenchTrace {
    /// Which frame of a speech recording each packet of this trace carries.
    public var speechFrameMap: SpeechFrameMap {
        SpeechFrameMap(packets: simulatedPackets, samplesPerFrame: samplesPerFrame)
    }

    /// `speech` (8 kHz mono) as this trace's packets carry it (``speechFrameMap``); `nil` when the
    /// speech is shorter than one packet.
    public func speechPackets(_ speech: [Int16]) -> SpeechPackets? {
        SpeechPackets(speech: speech, frameMap: speechFrameMap)
    }

    /// What a listener hears from our buffer (or the fixed baseline) when the trace carries `speech`.
    public func renderOurs(_ speech: SpeechPackets, configuration: JitterBufferConfiguration = JitterBufferConfiguration()) -> [Int16] {
        PlayoutSimulator(clockRate: clockRate, samplesPerFrame: samplesPerFrame, configuration: configuration)
            .render(simulatedPackets, speech: speech)
    }

    /// What a listener hears from a peer's playout when the trace carries `speech`: the same
    /// decoder and concealment as ours, one frame per pull (a sequence number that cannot be
    /// one of the trace's is concealed).
    public func render(_ playout: PeerPlayout, speech: SpeechPackets) -> [Int16] {
        let pulls = playout.pulls.map { pull -> FramePull in
            switch pull.outcome {
            case .played(let sequence): UInt64(exactly: sequence).map { .played(sequenceNumber: $0) } ?? .missing
            case .missing: .missing
            case .buffering: .buffering
            }
        }
        return speech.render(pulls, packets: simulatedPackets)
    }
}

extension JitterBenchTrace {
    /// `speech` (PCM in `encoder.format`) encoded by `encoder` as this trace's packets carry it
    /// (``speechFrameMap``); `nil` when the speech is shorter than one frame. The trace's timestamps must count at the encoder's RTP clock rate, one
    /// encoder frame per packet.
    public func encodedSpeech<Encoder: AudioEncoder>(_ speech: [Int16], encoder: inout Encoder) throws(CodecError) -> EncodedSpeech? {
        try EncodedSpeech(speech: speech, encoder: &encoder, frameMap: speechFrameMap)
    }

    /// What a listener hears from our buffer when the trace carries `speech`, decoded and
    /// concealed by `decoder` (for Opus: its concealment, and in-band FEC from the next packet
    /// when that one arrived in time), in `decoder.format`.
    public func renderOurs<Decoder: AudioDecoder>(
        _ speech: EncodedSpeech, decoder: Decoder, configuration: JitterBufferConfiguration = JitterBufferConfiguration()
    ) -> [Int16] {
        PlayoutSimulator(clockRate: clockRate, samplesPerFrame: samplesPerFrame, configuration: configuration)
            .render(simulatedPackets, decoder: decoder) { speech.payload(forTimestamp: $0.rtpTimestamp) }
    }
}
