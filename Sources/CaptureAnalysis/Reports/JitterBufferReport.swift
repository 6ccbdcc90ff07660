import QualityMetrics
import PlayoutLab
import Jitter

/// The loss and delay behind our jitter buffer: the stream's packets replayed through it as
/// they arrived in the capture, scored from what was played (`PlayoutLab`'s `StreamPlayoutReplay`). Keys
/// as in DESIGN.md's jitter-buffer benchmark rows.
///
/// Delays run from a sample's earliest possible arrival (its RTP time on the schedule of the
/// stream's fastest packet) to its playout, so they hold the buffering the network's jitter
/// needed, not the network's own transit time, which a one-ended capture cannot tell.
@dynamicMemberLookup
public struct JitterBufferReport: Sendable, Hashable, Encodable {
    /// Whether the payloads were decoded by the real codec; when not (a codec the project
    /// cannot decode), packets were replayed as silence of their duration and only the
    /// figures, not the audio, are available.
    public var audioDecoded: Bool
    /// The replay's score: delay, loss, concealment and time-stretch, read through the report
    /// (`report.p95DelayMilliseconds`).
    public var score: PlayoutScore
    /// How long the buffer played telephone-event tones (RFC 4733 digits sent in place of
    /// audio, played as their ITU-T Q.23 tones), in milliseconds: media the listener heard,
    /// counted as played in the score, never as concealment.
    public var toneMilliseconds: Double

    /// The report of a finished replay's score, with the tones it played.
    public init(_ score: PlayoutScore, audioDecoded: Bool, toneMilliseconds: Double) {
        self.audioDecoded = audioDecoded
        self.score = score
        self.toneMilliseconds = toneMilliseconds
    }

    /// A figure of the score.
    public subscript<Value>(dynamicMember keyPath: KeyPath<PlayoutScore, Value>) -> Value {
        score[keyPath: keyPath]
    }

    enum CodingKeys: String, CodingKey {
        case audioDecoded = "audio_decoded"
        case meanDelayMilliseconds = "mean_delay_ms", p50DelayMilliseconds = "p50_delay_ms"
        case p95DelayMilliseconds = "p95_delay_ms", p99DelayMilliseconds = "p99_delay_ms"
        case networkLossPercent = "network_loss_percent", lateLossPercent = "late_loss_percent"
        case effectiveLossPercent = "effective_loss_percent", concealmentPercent = "concealment_percent"
        case concealmentEvents = "concealment_events", interruptions, timeStretchPercent = "time_stretch_percent"
        case toneMilliseconds = "tone_ms"
    }

    /// The figures that apply to a replay, under DESIGN.md's keys (a replay has no stalls to
    /// recover from and its pull timings say nothing about the capture).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(audioDecoded, forKey: .audioDecoded)
        let figures: [(CodingKeys, Double)] = [
            (.meanDelayMilliseconds, score.meanDelayMilliseconds), (.p50DelayMilliseconds, score.p50DelayMilliseconds),
            (.p95DelayMilliseconds, score.p95DelayMilliseconds), (.p99DelayMilliseconds, score.p99DelayMilliseconds),
            (.networkLossPercent, score.networkLossPercent), (.lateLossPercent, score.lateLossPercent),
            (.effectiveLossPercent, score.effectiveLossPercent), (.concealmentPercent, score.concealmentPercent),
            (.timeStretchPercent, score.timeStretchPercent), (.toneMilliseconds, toneMilliseconds),
        ]
        for (key, value) in figures { try container.encode(value, forKey: key) }
        try container.encode(score.concealmentEvents, forKey: .concealmentEvents)
        try container.encode(score.interruptions, forKey: .interruptions)
    }
}

/// What became of a stream's WAV file of what the listener heard (`--wav-dir`).
public struct ListenerWAVReport: Sendable, Hashable, Encodable {
    /// The file written, `nil` when none was.
    public var path: String?
    /// Why no file was written, or why it is incomplete; `nil` when all went well.
    public var skippedReason: String?

    /// An outcome.
    public init(path: String?, skippedReason: String?) {
        self.path = path
        self.skippedReason = skippedReason
    }

    enum CodingKeys: String, CodingKey {
        case path, skippedReason = "skipped_reason"
    }

    /// Encodes both keys, `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(skippedReason, forKey: .skippedReason)
    }
}
