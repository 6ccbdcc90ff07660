import BenchmarkHarness
import Codecs
import Foundation
import PlayoutLab
import QualityMetrics
import Testing
import TestSupport

@testable import BenchmarkSuites
@testable import MediabenchCLI

/// Our buffer moves its delay in the pauses of what it decodes, so each recording played
/// through it has its own delay: `bench jitter --audio` and `simulate --audio` rate each
/// recording with the delay of the replay that rendered it, not the synthetic voice's.
@Suite struct SpeechPlayoutDelayTests {
    static let trace = JitterBenchTrace.scenario(.heavyJitter, durationSeconds: 20)

    /// Two espeak-ng talkers (8 kHz), written to `folder`: their names and paths.
    static func recordings(in folder: URL) throws -> [(name: String, path: String, speech: [Int16])] {
        try [("us", "en-us", 160), ("gb", "en-gb", 190)].map { name, voice, rate in
            let speech = try NoisySpeech.speech(NoisySpeech.Talker(voice: voice, wordsPerMinute: rate))
            let path = folder.appendingPathComponent(name + ".wav").path
            try WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 1), samples: speech).write(toFile: path)
            return (name, path, speech)
        }
    }

    /// Ours' row on a trace where a recording's replay waits differently from the synthetic
    /// voice's: the row's delay fields are each recording's own (and their means), and each
    /// recording's R_conv has its own mouth-to-ear delay (the same as when it is scored alone,
    /// where R_conv is exactly PESQ's R less Id at that delay).
    @Test func eachRecordingIsRatedWithTheDelayOfItsOwnReplay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speech-delay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recordings = try Self.recordings(in: folder)
        let trace = Self.trace
        let synthetic = trace.scoreOurs()
        let owned = try recordings.map { Self.speechReplay(trace, try #require(trace.speechPackets($0.speech))) }
        try #require(
            owned.contains { abs($0.meanDelayMilliseconds - synthetic.meanDelayMilliseconds) > 0.1 },
            "the premise: a speech replay waits otherwise than the synthetic voice's (\(owned.map(\.meanDelayMilliseconds)) against \(synthetic.meanDelayMilliseconds) ms)"
        )

        let both = try Self.scoredRow(trace, speechFiles: recordings.map(\.path), folder: folder)
        for (recording, score) in zip(recordings, owned) {
            #expect(both.field("mean_delay_ms_" + recording.name) == .number(score.meanDelayMilliseconds))
        }
        let meanDelay = owned.map(\.meanDelayMilliseconds).reduce(0, +) / 2
        #expect(both.field("mean_delay_ms") == .number(meanDelay))
        #expect(both.field("mouth_to_ear_ms") == .number(meanDelay + 20))
        #expect(both.field("effective_loss_percent") == .number(owned.map(\.effectiveLossPercent).reduce(0, +) / 2))

        let alone = try Self.scoredRow(trace, speechFiles: [recordings[1].path], folder: folder)
        guard case let .number(pesq)? = alone.field("pesq"), case let .number(rating)? = alone.field("r_conv") else {
            Issue.record("no rating for \(recordings[1].name) alone")
            return
        }
        let expected = try ConversationalRating(
            listeningMOS: pesq, bandwidth: .narrowband, mouthToEarMilliseconds: owned[1].meanDelayMilliseconds + 20)
        #expect(abs(rating - expected.rFactor) < 1e-9)
        #expect(both.field("r_conv_gb") == .number(rating), "rated as alone: its own delay, its own alignment")
    }

    /// `simulate --audio`'s delay and loss are those of the speech's replay.
    @Test func simulateReportsTheSpeechReplaysDelay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speech-delay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = try Self.recordings(in: folder)[0]
        let trace = JitterBenchTrace.scenario(.heavyJitter)
        let own = Self.speechReplay(trace, try #require(trace.speechPackets(recording.speech)))
        let synthetic = trace.scoreOurs()
        try #require(abs(own.meanDelayMilliseconds - synthetic.meanDelayMilliseconds) > 0.1, "the premise")
        let run = Invocation([
            "simulate", "--scenario", "heavy-jitter", "--audio", recording.path, "--output",
            folder.appendingPathComponent("heard.wav").path, "--format", "json",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Self.number("mean_delay_ms", in: run.standardOutput) == own.meanDelayMilliseconds)
        #expect(Self.number("mouth_to_ear_ms", in: run.standardOutput) == own.meanDelayMilliseconds + 20)
        #expect(Self.number("effective_loss_percent", in: run.standardOutput) == own.effectiveLossPercent)
    }

    /// The number under `key` in a JSON text, read exactly. The JSON writer prints a double's
    /// shortest digits that read back as it, but Foundation's JSON parser on Linux can miss the
    /// last bit (`179.72310517940898` reads back as `179.72310517940895`), so the digits are
    /// read by `Double.init(_:)`, which rounds correctly.
    static func number(_ key: String, in json: String) -> Double? {
        guard let name = json.range(of: "\"\(key)\"") else { return nil }
        let value = json[name.upperBound...].drop { $0 == " " || $0 == ":" }
        return Double(String(value.prefix { "0123456789.-+eE".contains($0) }))
    }

    /// The score of our buffer's replay of `trace` carrying `speech`, from the simulator's
    /// records.
    static func speechReplay(_ trace: JitterBenchTrace, _ speech: SpeechPackets) -> PlayoutScore {
        let packets = trace.simulatedPackets
        let records = PlayoutSimulator(clockRate: 8000, samplesPerFrame: 160).render(packets, speech: speech).records
        return PlayoutScore(trace: packets, records: records, clockRate: 8000, samplesPerFrame: 160)
    }

    /// Ours' row of `trace` with the listening fields of `speechFiles`.
    static func scoredRow(_ trace: JitterBenchTrace, speechFiles: [String], folder: URL) throws -> BenchmarkRow {
        let context = BenchmarkContext(suite: "jitter", options: BenchmarkOptions(runs: 1))
        var rows = try JitterListeningTest(speechFiles: speechFiles, folder: folder, jobs: 2).rows(for: trace)
        let firstArrival = trace.simulatedPackets.compactMap(\.arrivalMilliseconds).min() ?? 0
        rows.add(
            JitterBench.row(trace: trace, implementation: "ours", knob: nil, score: trace.scoreOurs()), renderStartMilliseconds: firstArrival,
            context: context
        ) { trace.renderOurs($0) }
        _ = rows.score(context: context)
        #expect(context.failures.isEmpty, "\(context.failures)")
        return try #require(rows.rows.first)
    }
}
