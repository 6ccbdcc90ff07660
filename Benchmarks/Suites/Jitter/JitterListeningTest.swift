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
/// (``ConversationalRating``).
///
/// Each row gets `pesq`, `mouth_to_ear_ms` and `r_conv` (means over the recordings) and
/// `r_conv_<recording>` for each.
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

    /// Reads the recordings (16-bit mono WAV at 8000 Hz); files are written into `folder`.
    init(speechFiles paths: [String], folder: URL) throws(JitterListeningError) {
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
    }

    /// Sets `row`'s listening fields from what `render` makes of each recording on `trace`,
    /// whose playout `score` describes and whose rendered audio starts at
    /// `renderStartMilliseconds` on the trace's clock; returns the mean R_conv, or `nil` after
    /// recording a failure for the row when the trace cannot carry the speech or scoring fails.
    @discardableResult
    func score(
        _ row: inout BenchmarkRow, trace: JitterBenchTrace, playout score: PlayoutScore, renderStartMilliseconds: Double,
        context: BenchmarkContext, render: (SpeechPackets) -> [Int16]
    ) -> Double? {
        do {
            let frameMap = trace.speechFrameMap
            guard trace.clockRate == 8000, let first = trace.simulatedPackets.first else {
                throw JitterListeningError.unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
            }
            let mouthToEar = score.meanDelayMilliseconds + Double(trace.frameMilliseconds)
            // The reference sample at media position p was sent at first.send + p/8 ms and is
            // heard `meanDelay` later; the rendered audio starts at `renderStart`.
            let offset = Int(((first.sendMilliseconds + score.meanDelayMilliseconds - renderStartMilliseconds) * 8).rounded())
            var opinions: [Double] = []
            var ratings: [Double] = []
            for recording in recordings {
                guard let packets = SpeechPackets(speech: recording.speech, frameMap: frameMap) else {
                    throw JitterListeningError.unsupportedTrace(trace: trace.name, clockRate: trace.clockRate)
                }
                let opinion = try pesq.meanOpinion(
                    reference: frameMap.referenceTimeline(speech: recording.speech, samplesPerFrame: trace.samplesPerFrame),
                    heard: render(packets), sampleRate: 8000, windowSamples: recording.speech.count / trace.samplesPerFrame * trace.samplesPerFrame,
                    offsetSamples: offset
                )
                let rating = try ConversationalRating(listeningMOS: opinion, bandwidth: .narrowband, mouthToEarMilliseconds: mouthToEar)
                row.setField("r_conv_" + recording.name, .number(rating.rFactor))
                opinions.append(opinion)
                ratings.append(rating.rFactor)
            }
            let mean = ratings.reduce(0, +) / Double(max(ratings.count, 1))
            row.setField("pesq", .number(opinions.reduce(0, +) / Double(max(opinions.count, 1))))
            row.setField("mean_delay_ms", .number(score.meanDelayMilliseconds))
            row.setField("mouth_to_ear_ms", .number(mouthToEar))
            row.setField("r_conv", .number(mean))
            return mean
        } catch {
            context.recordFailure(trace.name, implementation: row.implementation, error)
            return nil
        }
    }
}
