import BenchmarkHarness
import Codecs
import Foundation
import Jitter
import PlayoutLab
import QualityMetrics

/// Speech through every buffer of the jitter benchmark (`bench jitter --audio SPEECH.wav …`,
/// one or more recordings): the speech rides the trace's packets as PCMU (``SpeechFrameMap``:
/// the k-th packet sent carries frame k), each buffer's playout is rendered with the same G.711
/// decoder and Appendix I concealment, and what a listener heard over the whole trace is scored
/// by PESQ narrowband (PyPI `pesq` through `scripts/listening-quality/pesq_windows.py`, an
/// outside oracle) in consecutive speech-length windows, averaged. With the mean mouth-to-ear
/// delay the listener had, Ta = playout delay (send to play, network included) + the 20 ms of
/// packetisation (G.711 adds no look-ahead), that gives the conversational rating R_conv
/// (``ConversationalRating``). The delay is that of the playout which rendered the recording
/// (``HeardPlayout``): our buffer moves its delay in the pauses of what it decodes, so each
/// recording has its own.
///
/// Each row gets `pesq`, `mean_delay_ms`, `mouth_to_ear_ms`, `late_loss_percent`,
/// `effective_loss_percent` and `r_conv` (means over the recordings, replacing the figures
/// of the replay without speech), and `r_conv_<recording>` and `mean_delay_ms_<recording>`
/// for each.
struct JitterListeningTest {
    /// One recording the buffers are scored with.
    struct Recording {
        /// The file name without `.wav`, which names its field.
        let name: String
        /// Its samples (8 kHz mono).
        let speech: [Int16]
    }

    /// The recordings.
    let recordings: [Recording]
    /// The scorer.
    let pesq: WindowedPESQ
    /// The scorer's worker processes.
    let jobs: Int

    /// Reads the recordings (16-bit mono WAV at 8000 Hz); files are written into `folder`, and
    /// `jobs` worker processes score them.
    init(speechFiles paths: [String], folder: URL, jobs: Int) throws(JitterListeningError) {
        var recordings: [Recording] = []
        for path in paths {
            let audio: WAVAudio
            do {
                audio = try WAVAudio(contentsOfFile: path)
            } catch {
                throw .unreadableSpeech(path: path, message: error.description)
            }
            guard audio.format == AudioFormat(sampleRate: 8000, channels: 1) else {
                throw .unreadableSpeech(path: path, message: "needs 8000 Hz mono speech, got \(audio.format)")
            }
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            recordings.append(Recording(name: name, speech: audio.samples))
        }
        self.recordings = recordings
        pesq = WindowedPESQ(folder: folder)
        self.jobs = max(jobs, 1)
    }

    /// The rows of one trace whose speech has been rendered, waiting to be scored together
    /// (``score(_:context:)``): one run of the scorer per trace.
    struct TraceRows {
        /// A rendered row: where its requests start (one per recording), and the playout of
        /// each recording.
        fileprivate struct Rendered {
            let firstRequest: Int
            let playouts: [PlayoutScore]
        }

        /// The recordings and the scorer.
        fileprivate let test: JitterListeningTest
        /// The trace.
        fileprivate let trace: JitterBenchTrace
        /// Each recording's reference file, or why the trace cannot carry the speech.
        fileprivate let references: Result<[URL], JitterListeningError>
        /// The rows, in the order they were added; their listening fields are set by scoring.
        fileprivate(set) var rows: [BenchmarkRow] = []
        fileprivate var rendered: [Rendered?] = []
        fileprivate var requests: [WindowedPESQ.Request] = []
    }

    /// The rows of `trace`, none yet: writes each recording's reference (what the sender sent,
    /// ``SpeechFrameMap``).
    func rows(for trace: JitterBenchTrace) -> TraceRows {
        let references = Result { () throws(JitterListeningError) -> [URL] in
            guard trace.clockRate == 8000, trace.simulatedPackets.first != nil else {
                throw .unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
            }
            let frameMap = trace.speechFrameMap
            return try recordings.map { recording throws(JitterListeningError) in
                let reference = frameMap.referenceTimeline(speech: recording.speech, samplesPerFrame: trace.samplesPerFrame)
                do {
                    return try pesq.writeAudio(reference, sampleRate: 8000, named: "\(trace.name)-\(recording.name)-reference.wav")
                } catch {
                    throw .scoringFailed(status: -1, message: "cannot write the reference: \(error)")
                }
            }
        }
        return TraceRows(test: self, trace: trace, references: references)
    }
}

extension JitterListeningTest.TraceRows {
    /// Adds `row` with what `render` makes of each recording (the audio and its playout),
    /// whose rendered audio starts at `renderStartMilliseconds` on the trace's clock; records a
    /// failure for the row when the trace cannot carry the speech.
    mutating func add(
        _ row: BenchmarkRow, renderStartMilliseconds: Double, context: BenchmarkContext, render: (SpeechPackets) -> HeardPlayout
    ) {
        let index = rows.count
        rows.append(row)
        rendered.append(nil)
        do {
            let references = try self.references.get()
            guard let first = trace.simulatedPackets.first else {
                throw JitterListeningError.unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
            }
            var requests: [WindowedPESQ.Request] = []
            var playouts: [PlayoutScore] = []
            for (recording, reference) in zip(test.recordings, references) {
                guard let packets = SpeechPackets(speech: recording.speech, frameMap: trace.speechFrameMap) else {
                    throw JitterListeningError.unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
                }
                let heard = render(packets)
                // The reference sample at media position p was sent at first.send + p/8 ms and
                // is heard this playout's mean delay later; the rendered audio starts at
                // `renderStart`.
                let offset = Int(((first.sendMilliseconds + heard.score.meanDelayMilliseconds - renderStartMilliseconds) * 8).rounded())
                let file = try test.pesq.writeAudio(heard.audio, sampleRate: 8000, named: "\(trace.name)-\(index)-\(recording.name).wav")
                requests.append(
                    WindowedPESQ.Request(
                        reference: reference, heard: file, sampleRate: 8000,
                        windowSamples: recording.speech.count / trace.samplesPerFrame * trace.samplesPerFrame, offsetSamples: offset))
                playouts.append(heard.score)
            }
            rendered[index] = Rendered(firstRequest: self.requests.count, playouts: playouts)
            self.requests += requests
        } catch {
            context.recordFailure(trace.name, implementation: row.implementation, error)
        }
    }

    /// Scores every row in one run of the scorer and sets each row's listening fields:
    /// `pesq`, `mean_delay_ms`, `mouth_to_ear_ms`, `late_loss_percent`,
    /// `effective_loss_percent`, `r_conv` (means over the recordings), `r_conv_<recording>`
    /// and `mean_delay_ms_<recording>`; each recording's R_conv has the mouth-to-ear delay of
    /// the playout that rendered it. Returns each row's mean R_conv, `nil` (with a failure
    /// recorded for the row) where the speech could not be rendered or scored.
    mutating func score(context: BenchmarkContext) -> [Double?] {
        let opinions: [Result<Double, JitterListeningError>]
        do {
            opinions = try test.pesq.meanOpinions(requests, jobs: test.jobs)
        } catch {
            for (row, rendered) in zip(rows, rendered) where rendered != nil {
                context.recordFailure(trace.name, implementation: row.implementation, error)
            }
            return rows.map { _ in nil }
        }
        return rendered.indices.map { index -> Double? in
            guard let rendered = rendered[index] else { return nil }
            do {
                var sums = (opinion: 0.0, rating: 0.0, delay: 0.0, lateLoss: 0.0, effectiveLoss: 0.0)
                for (offset, (recording, playout)) in zip(test.recordings, rendered.playouts).enumerated() {
                    let opinion = try opinions[rendered.firstRequest + offset].get()
                    let rating = try ConversationalRating(
                        listeningMOS: opinion, bandwidth: .narrowband,
                        mouthToEarMilliseconds: playout.meanDelayMilliseconds + Double(trace.frameMilliseconds))
                    rows[index].setField("r_conv_" + recording.name, .number(rating.rFactor))
                    rows[index].setField("mean_delay_ms_" + recording.name, .number(playout.meanDelayMilliseconds))
                    sums.opinion += opinion
                    sums.rating += rating.rFactor
                    sums.delay += playout.meanDelayMilliseconds
                    sums.lateLoss += playout.lateLossPercent
                    sums.effectiveLoss += playout.effectiveLossPercent
                }
                let count = Double(max(test.recordings.count, 1))
                rows[index].setField("pesq", .number(sums.opinion / count))
                rows[index].setField("mean_delay_ms", .number(sums.delay / count))
                rows[index].setField("mouth_to_ear_ms", .number(sums.delay / count + Double(trace.frameMilliseconds)))
                rows[index].setField("late_loss_percent", .number(sums.lateLoss / count))
                rows[index].setField("effective_loss_percent", .number(sums.effectiveLoss / count))
                rows[index].setField("r_conv", .number(sums.rating / count))
                return sums.rating / count
            } catch {
                context.recordFailure(trace.name, implementation: rows[index].implementation, error)
                return nil
            }
        }
    }
}
