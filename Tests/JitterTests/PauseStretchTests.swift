import Codecs
import Testing

@testable import Jitter
import PlayoutLab

@Suite struct PauseStretchTests {
    /// Speech-like PCMU: 600 ms of a voiced 100 Hz sawtooth, then a 200 ms pause, repeating.
    static let cyclePackets = 40
    static let voicedPackets = 30

    static func payload(packet: Int, encoder: inout G711Encoder) throws -> [UInt8] {
        let voiced = packet % cyclePackets < voicedPackets
        let pcm = (0..<160).map { index -> Int16 in
            guard voiced else { return 0 }
            let phase = Double(index % 80) / 80
            return Int16(8000 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase))
        }
        var payload = [UInt8](repeating: 0, count: 160)
        _ = try pcm.withUnsafeBufferPointer { samples in try payload.withUnsafeMutableBytes { try encoder.encode(samples, into: $0) } }
        return payload
    }

    /// 20 s: pauses this short, in a stream with no silence long enough to bring the voice
    /// activity decision's noise floor down, keep the start's excess until 10 s have played
    /// (``JitterBuffer/startLeavingPatienceMilliseconds``).
    @Test func delayShrinksInThePausesOnly() throws {
        var encoder = try G711Encoder(law: .muLaw)
        var configuration = JitterBufferConfiguration()
        configuration.initialDelayMilliseconds = 60  // 50 ms too much once the network shows
        var buffer = JitterBuffer(decoder: G711Decoder(law: .muLaw), configuration: configuration)
        let payloads = try (0..<1000).map { try Self.payload(packet: $0, encoder: &encoder) }
        var acceleratedPackets: [Int] = []
        SteadyPCMUStream.play(payloads, through: &buffer, pulls: 2000) { _, decision, _, _ in
            if decision.kind == .accelerate { acceleratedPackets.append(Int(decision.rtpTimestamp) / 160) }
        }
        #expect(!acceleratedPackets.isEmpty, "the excess delay is removed")
        #expect(
            acceleratedPackets.allSatisfy { $0 % Self.cyclePackets >= Self.voicedPackets },
            "only where the audio pauses: packets \(acceleratedPackets.map { $0 % Self.cyclePackets })"
        )
        let statistics = buffer.statistics
        #expect(abs(statistics.currentDelayMilliseconds - statistics.targetDelayMilliseconds) < 12)
    }
}
