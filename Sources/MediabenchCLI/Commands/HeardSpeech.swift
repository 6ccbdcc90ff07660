import BenchmarkSuites
import Foundation
import PlayoutLab
import QualityMetrics

/// What `simulate --audio` played of the speech, and what it takes to rate it as a
/// conversation.
struct HeardSpeech {
    /// The speech sent (mono).
    let speech: [Int16]
    /// What the listener heard, at the speech's rate.
    let heard: [Int16]
    /// The rate of both.
    let sampleRate: Int
    /// The replay's record of every pull: the playout the speech had.
    let records: [PlayoutRecord]
    /// Packetisation and look-ahead of the encoder, in milliseconds.
    let codecDelayMilliseconds: Double

    /// R_conv over the whole trace: windowed PESQ (P.862.1 at 8 kHz, P.862.2 at 16 kHz) against
    /// what the sender sent, with Ta = the mean playout delay of `playout` (the score of
    /// ``records``) plus the codec's delay; `nil` at rates PESQ does not take, or for speech shorter than 2 s (too short a
    /// window for PESQ).
    func conversationalRating(trace: JitterBenchTrace, playout: PlayoutScore) throws -> ConversationalRating? {
        guard sampleRate == 8000 || sampleRate == 16_000, speech.count >= 2 * sampleRate,
            let first = trace.simulatedPackets.first
        else { return nil }
        let arrival = trace.simulatedPackets.compactMap(\.arrivalMilliseconds).min() ?? first.sendMilliseconds
        let speechSamplesPerFrame = sampleRate * trace.frameMilliseconds / 1000
        let reference = trace.speechFrameMap.referenceTimeline(speech: speech, samplesPerFrame: speechSamplesPerFrame)
        let offset = (first.sendMilliseconds + playout.meanDelayMilliseconds - arrival) * Double(sampleRate) / 1000
        // One folder per rating: several run at once in one process (the tests, a bench).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediabench-simulate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let opinion = try WindowedPESQ(folder: folder).meanOpinion(
            reference: reference, heard: heard, sampleRate: sampleRate,
            windowSamples: speech.count / speechSamplesPerFrame * speechSamplesPerFrame, offsetSamples: Int(offset.rounded())
        )
        return try ConversationalRating(
            listeningMOS: opinion, bandwidth: sampleRate == 8000 ? .narrowband : .wideband,
            mouthToEarMilliseconds: playout.meanDelayMilliseconds + codecDelayMilliseconds
        )
    }
}
