import Foundation
import Testing
import TestSupport

@testable import BenchmarkSuites

/// `bench jitter --audio` scores a trace's rows in one run of `pesq_windows.py --batch`: the
/// scores must be those of one run per playout, to the digit, and a request that cannot be
/// scored must fail alone.
@Suite struct WindowedPESQBatchTests {
    @Test func aBatchScoresEachPlayoutAsASingleRunDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pesq-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try NoisySpeech.speech(NoisySpeech.Talker(voice: "en-us", wordsPerMinute: 160))
        // Heard versions: a whole copy 40 ms late, and one with every 12th 20 ms frame silenced.
        let late = [Int16](repeating: 0, count: 320) + speech
        let gapped = speech.enumerated().map { index, sample in (index / 160) % 12 == 5 ? 0 : sample }
        let pesq = WindowedPESQ(folder: folder)
        let window = speech.count / 2
        let single = try [(late, 320), (gapped, 0)].map { heard, offset in
            try pesq.meanOpinion(reference: speech, heard: heard, sampleRate: 8000, windowSamples: window, offsetSamples: offset)
        }
        let reference = try pesq.writeAudio(speech, sampleRate: 8000, named: "batch-reference.wav")
        let requests = try [(late, 320, "late"), (gapped, 0, "gapped")].map { heard, offset, name in
            WindowedPESQ.Request(
                reference: reference, heard: try pesq.writeAudio(heard, sampleRate: 8000, named: name + ".wav"), sampleRate: 8000,
                windowSamples: window, offsetSamples: offset)
        }
        let missing = WindowedPESQ.Request(
            reference: reference, heard: folder.appendingPathComponent("none.wav"), sampleRate: 8000, windowSamples: window,
            offsetSamples: 0)
        let batch = try pesq.meanOpinions(requests + [missing] + requests, jobs: 2)
        #expect(batch.count == 5)
        #expect(try batch.prefix(2).map { try $0.get() } == single)
        #expect(try batch.suffix(2).map { try $0.get() } == single, "in order, whatever worker scored them")
        #expect((try? batch[2].get()) == nil, "a missing file fails its request alone")
        #expect(single[0] > 4 && single[1] < single[0], "the late copy is whole, the gapped one is not")
    }
}
