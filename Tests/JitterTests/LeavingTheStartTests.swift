import Codecs
import Testing

@testable import Jitter

/// The 30 ms start goes, all of it at once, in the first pause when the pauses are silence; over
/// background noise only in a pause long enough to be a break between utterances (250 ms of no
/// speech after the voice activity decision's hangover), or once 10 s have played.
@Suite struct LeavingTheStartTests {
    /// PCMU packets: 300 ms of the pause first (a recording's lead-in), then a voiced 100 Hz
    /// sawtooth for `voicedPackets` and `pausePackets` of silence or of noise at about −45 dBov,
    /// repeating. A silent lead-in holds the voice activity decision's noise floor at digital
    /// silence for its 2 s window; a noisy one at the noise.
    static func payloads(count: Int, voicedPackets: Int, pausePackets: Int, noisy: Bool) throws -> [[UInt8]] {
        var encoder = try G711Encoder(law: .muLaw)
        var random: UInt32 = 12345
        let leadIn = 15
        return try (0..<count).map { packet in
            let voiced = packet >= leadIn && (packet - leadIn) % (voicedPackets + pausePackets) < voicedPackets
            let pcm = (0..<160).map { index -> Int16 in
                guard voiced else {
                    guard noisy else { return 0 }
                    random = random &* 1_664_525 &+ 1_013_904_223
                    return Int16(Int(random >> 16) % 401 - 200)
                }
                let phase = Double(index % 80) / 80
                return Int16(8000 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase))
            }
            var payload = [UInt8](repeating: 0, count: 160)
            _ = try pcm.withUnsafeBufferPointer { samples in try payload.withUnsafeMutableBytes { try encoder.encode(samples, into: $0) } }
            return payload
        }
    }

    /// The first pull from which the delay stays below 15 ms, the stream arriving on the pulls
    /// 40 ms after it was sent; `nil` if it never does.
    static func startLeftAt(pausePackets: Int, noisy: Bool) throws -> Int? {
        let payloads = try Self.payloads(count: 1000, voicedPackets: 30, pausePackets: pausePackets, noisy: noisy)
        var buffer = JitterBuffer(decoder: G711Decoder(law: .muLaw), configuration: JitterBufferConfiguration())
        var delays: [Double] = []
        SteadyPCMUStream.play(payloads, through: &buffer, pulls: 1900) { _, _, _, buffer in
            delays.append(buffer.statistics.currentDelayMilliseconds)
        }
        guard let last = delays.lastIndex(where: { $0 >= 15 }) else { return 0 }
        return last + 1 < delays.count ? last + 1 : nil
    }

    @Test func silentPausesTakeTheStartAtTheFirst() throws {
        // Pauses of 200 ms, the first from 900 ms.
        let pull = try #require(try Self.startLeftAt(pausePackets: 10, noisy: false))
        #expect(pull < 120, "left at pull \(pull)")
    }

    @Test func noisyPausesTakeTheStartAtTheFirstLongOne() throws {
        // Pauses of 600 ms of noise: 450 ms of them are no speech after the hangover.
        let pull = try #require(try Self.startLeftAt(pausePackets: 30, noisy: true))
        #expect(pull < 200, "left at pull \(pull)")
    }

    @Test func shortNoisyPausesKeepTheStartUntilTheCallHasPlayedTenSeconds() throws {
        let pull = try #require(try Self.startLeftAt(pausePackets: 10, noisy: true))
        #expect(pull > 1000 && pull < 1300, "left at pull \(pull)")
    }
}
