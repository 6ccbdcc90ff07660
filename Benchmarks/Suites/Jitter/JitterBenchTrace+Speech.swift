import Codecs
import Jitter
import PlayoutLab

/// What a listener heard from one buffer when a trace carried one recording, and the score of
/// the playout that played it. For our buffer that is the replay of this very speech (its
/// delay moves in the speech's own pauses, so each recording has its own delay and loss); a
/// peer decides from the arrivals alone, so every recording gets the same score.
public struct HeardPlayout: Sendable {
    /// The PCM of every pull, in order.
    public var audio: [Int16]
    /// The playout that produced ``audio``.
    public var score: PlayoutScore
}

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

    /// What a listener hears from our buffer (or the fixed baseline) when the trace carries
    /// `speech`, and that replay's score.
    public func renderOurs(_ speech: SpeechPackets, configuration: JitterBufferConfiguration = JitterBufferConfiguration()) -> HeardPlayout {
        let packets = simulatedPackets
        let rendered = PlayoutSimulator(clockRate: clockRate, samplesPerFrame: samplesPerFrame, configuration: configuration)
            .render(packets, speech: speech)
        return HeardPlayout(
            audio: rendered.audio,
            score: PlayoutScore(trace: packets, records: rendered.records, clockRate: clockRate, samplesPerFrame: samplesPerFrame))
    }

    /// What a listener hears from a peer's playout when the trace carries `speech`: the same
    /// decoder and concealment as ours, one frame per pull (a sequence number that cannot be
    /// one of the trace's is concealed); the score is the playout's (``score(_:)``).
    public func render(_ playout: PeerPlayout, speech: SpeechPackets) -> HeardPlayout {
        let pulls = playout.pulls.map { pull -> FramePull in
            switch pull.outcome {
            case .played(let sequence): UInt64(exactly: sequence).map { .played(sequenceNumber: $0) } ?? .missing
            case .missing: .missing
            case .buffering: .buffering
            }
        }
        return HeardPlayout(audio: speech.render(pulls, packets: simulatedPackets), score: score(playout))
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
    /// when that one arrived in time), in `decoder.format`, with the records of that replay.
    public func renderOurs<Decoder: AudioDecoder>(
        _ speech: EncodedSpeech, decoder: Decoder, configuration: JitterBufferConfiguration = JitterBufferConfiguration()
    ) -> RenderedPlayout {
        PlayoutSimulator(clockRate: clockRate, samplesPerFrame: samplesPerFrame, configuration: configuration)
            .render(simulatedPackets, decoder: decoder) { speech.payload(forTimestamp: $0.rtpTimestamp) }
    }
}
