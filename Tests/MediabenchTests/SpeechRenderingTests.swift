import BenchmarkSuites
import Codecs
import Foundation
import Jitter
import PlayoutLab
import Testing

@testable import MediabenchCLI

/// Speech through a peer's frame/missing playout and through ours, with the shared
/// speech-to-packet mapping and the same G.711 decoder and Appendix I concealment.
@Suite struct SpeechRenderingTests {
    /// Four 20 ms frames of a 300 Hz tone, well above µ-law's quantisation.
    static let speech: [Int16] = (0..<640).map { Int16(8000 * sin(2 * Double.pi * 300 * Double($0) / 8000 + 1)) }

    /// Frame `index` of the speech as a µ-law round trip gives it, sample by sample.
    static func roundTrip(frame index: Int) -> [Int16] {
        speech[(index * 160)..<((index + 1) * 160)].map { G711Law.muLaw.decode(G711Law.muLaw.encode($0)) }
    }

    static func energy(_ samples: ArraySlice<Int16>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)
    }

    @Test func speechPacketsCarryFrameNByTimestampAndCycle() throws {
        let packets = try #require(SpeechPackets(speech: Self.speech + [1, 2, 3], frameMap: Self.consecutive(count: 8)))
        #expect(packets.payloads.count == 4, "the partial last frame is dropped")
        #expect(packets.payload(forTimestamp: 1000 + 2 * 160) == Self.speech[320..<480].map(G711Law.muLaw.encode))
        #expect(packets.payload(forTimestamp: 1000 + 5 * 160) == packets.payloads[1], "the speech cycles")
        #expect(SpeechPackets(speech: Array(Self.speech.prefix(159)), frameMap: Self.consecutive(count: 8)) == nil)
    }

    /// DTX: the sender skips 3 frames of silence after its second packet; the third packet
    /// carries the third frame of speech (none of the speech is skipped), and the listener's
    /// reference has 60 ms of silence there.
    @Test func dtxGapsAreSilenceNotSkippedSpeech() throws {
        let timestamps: [UInt64] = [1000, 1160, 1800, 1960]
        let sent = timestamps.enumerated().map { index, timestamp in
            SimulatedPacket(sequenceNumber: UInt64(index), rtpTimestamp: timestamp, sendMilliseconds: 0, arrivalMilliseconds: nil)
        }
        let map = SpeechFrameMap(packets: sent, samplesPerFrame: 160)
        let packets = try #require(SpeechPackets(speech: Self.speech, frameMap: map))
        #expect(packets.payload(forTimestamp: 1800) == packets.payloads[2])
        #expect(packets.payload(forTimestamp: 1960) == packets.payloads[3])
        let reference = map.referenceTimeline(speech: Self.speech, samplesPerFrame: 160)
        #expect(reference.count == 960 + 160)
        #expect(Array(reference[0..<320]) == Array(Self.speech[0..<320]))
        #expect(reference[320..<800].allSatisfy { $0 == 0 })
        #expect(Array(reference[800..<1120]) == Array(Self.speech[320..<640]))
    }

    /// A frame map of `count` packets, one frame apart from timestamp 1000.
    static func consecutive(count: Int) -> SpeechFrameMap {
        let sent = (0..<count).map {
            SimulatedPacket(sequenceNumber: UInt64($0), rtpTimestamp: 1000 + UInt64($0) * 160, sendMilliseconds: 0, arrivalMilliseconds: nil)
        }
        return SpeechFrameMap(packets: sent, samplesPerFrame: 160)
    }

    @Test func peerPlayoutIsDecodedConcealedAndSilentWhileBuffering() throws {
        let trace = try SyntheticTrace(count: 4, firstSeq: 10, firstTimestamp: 5000) { $0 == 2 ? nil : 30 }
        let bench = try JitterBenchTrace.file(trace.file.path)
        let speech = try #require(bench.speechPackets(Self.speech))
        let playout = try PeerPlayout(
            parsing: "peer 1.0\nknob,latency,40,ms\n1030,buffering\n1050,10\n1070,11\n1090,-\n1110,13\n", peer: "peer"
        )
        let audio = bench.render(playout, speech: speech).audio
        #expect(audio.count == 5 * 160)
        #expect(audio[0..<160].allSatisfy { $0 == 0 }, "buffering is silent")
        #expect(Array(audio[160..<320]) == Self.roundTrip(frame: 0), "seq 10 carries the first frame")
        #expect(Array(audio[320..<480]) == Self.roundTrip(frame: 1))
        let concealed = audio[480..<640]
        #expect(Self.energy(concealed) > 0.25 * Self.energy(audio[320..<480]), "a missing frame after speech is concealed")
        #expect(Array(concealed) != Self.roundTrip(frame: 2), "the lost packet's frame is not played")
        // After the loss, Appendix I blends the concealment into the first 10 ms at most.
        #expect(Array(audio[720..<800]) == Array(Self.roundTrip(frame: 3)[80...]))
    }

    @Test func simulateAndTheBenchRenderOursFromTheSameSpeechPackets() throws {
        let trace = try SyntheticTrace(count: 50) { _ in 25 }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("speech.wav").path
        let output = folder.appendingPathComponent("heard.wav").path
        try WAVAudio(format: AudioFormat(sampleRate: 8000, channels: 1), samples: Self.speech).write(toFile: input)
        let run = Invocation([
            "simulate", "--trace", trace.file.path, "--jitter-buffer", "fixed:40", "--audio", input, "--output", output,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let heard = try WAVAudio(contentsOfFile: output).samples

        let bench = try JitterBenchTrace.file(trace.file.path)
        var configuration = JitterBufferConfiguration()
        configuration.delayPolicy = .fixed(milliseconds: 40)
        let rendered = bench.renderOurs(try #require(bench.speechPackets(Self.speech)), configuration: configuration).audio
        #expect(heard == rendered)
        // On a clean trace the speech plays whole and in order, cycling through its four frames.
        let cycle = (0..<4).flatMap { Self.roundTrip(frame: $0) }
        let start = try #require(heard.firstIndex { $0 != 0 })
        #expect(heard.count >= start + 2 * cycle.count)
        #expect(Array(heard[start..<(start + 2 * cycle.count)]) == cycle + cycle)
    }
}
