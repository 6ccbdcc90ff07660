import BenchmarkHarness
import Codecs
import Foundation
import Jitter
import PlayoutLab

/// Speech through every buffer of the jitter benchmark (`bench jitter --audio SPEECH.wav`): the
/// speech rides the trace's packets as PCMU, each buffer's playout is rendered with the same
/// G.711 decoder and Appendix I concealment, and what a listener hears is scored by PESQ
/// narrowband (PyPI `pesq` through `scripts/listening-quality/pesq_score.py`, an outside
/// oracle), as the row's `pesq` field.
struct JitterListeningTest {
    /// The speech file, the reference PESQ compares against.
    let speechFile: URL
    /// Its samples (8 kHz mono).
    let speech: [Int16]
    /// Where each rendered playout is written before it is scored.
    let renderedFile: URL

    /// The scorer, beside this package's other listening-quality scripts.
    static var scoringScript: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Jitter
            .deletingLastPathComponent()  // Suites
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // package
            .appendingPathComponent("scripts/listening-quality/pesq_score.py")
    }

    /// Reads the speech (16-bit mono WAV at 8000 Hz); rendered playouts go into `folder`.
    init(speechFile path: String, folder: URL) throws(JitterListeningError) {
        let audio: WAVAudio
        do {
            audio = try WAVAudio(contentsOfFile: path)
        } catch {
            throw .unreadableSpeech(path: path, message: error.description)
        }
        guard audio.format == AudioFormat(sampleRate: 8000, channels: 1) else {
            throw .unreadableSpeech(path: path, message: "needs 8000 Hz mono speech, got \(audio.format)")
        }
        speechFile = URL(fileURLWithPath: path)
        speech = audio.samples
        renderedFile = folder.appendingPathComponent("listener.wav")
    }

    /// Sets `row`'s `pesq` field to the PESQ of what `render` makes of the speech on `trace`;
    /// records a failure for the row instead when the trace cannot carry the speech or the
    /// scorer fails.
    func score(
        _ row: inout BenchmarkRow, trace: JitterBenchTrace, context: BenchmarkContext,
        render: (SpeechPackets) -> [Int16]
    ) {
        do {
            guard trace.clockRate == 8000, let packets = trace.speechPackets(speech) else {
                throw JitterListeningError.unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
            }
            row.setField("pesq", .number(try pesq(render(packets))))
        } catch {
            context.recordFailure(trace.name, implementation: row.implementation, error)
        }
    }

    /// The PESQ-NB score of `samples` against the speech.
    private func pesq(_ samples: [Int16]) throws -> Double {
        try WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 1), samples: samples).write(toFile: renderedFile.path)
        let result = try Subprocess.run(
            searchingPath: ["python3", Self.scoringScript.path, speechFile.path, renderedFile.path, "nb"]
        )
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, let score = Double(text) else {
            let message = result.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? text
            throw JitterListeningError.scoringFailed(status: result.status, message: message)
        }
        return score
    }
}
