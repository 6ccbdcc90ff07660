import BenchmarkHarness
import Codecs
import Testing
import TestSupport

/// The audio paths allocate nothing per frame after warm-up. The counter sees every thread, and
/// other tests run in parallel, so each path is measured a few times and the quietest run counts:
/// a path that allocated per frame would never reach zero.
@Suite("Codecs allocate nothing per frame", .countsAllocations)
struct OpusAllocationTests {
    static func fewestAllocations(frames: Int = 10, _ body: () throws -> Void) rethrows -> UInt64 {
        try body()  // warm-up
        var fewest = UInt64.max
        for _ in 0..<20 {
            let (allocations, _) = try AllocationCounter.counting {
                for _ in 0..<frames { try body() }
            }
            fewest = min(fewest, allocations)
        }
        return fewest
    }

    @Test func opusEncodeDecodeConcealRecoverAndInspect() throws {
        let encoder = try OpusEncoder(
            configuration: OpusEncoderConfiguration(
                bitrate: .bitsPerSecond(32_000), inbandFEC: true, expectedPacketLossPercent: 10))
        let decoder = try OpusDecoder()
        let speech = OpusTestAudio.speechLike(sampleRate: 48_000, seconds: 0.02 * 60)
        var packet = [UInt8](repeating: 0, count: OpusEncoder.maximumPacketBytes)
        var pcm = [Int16](repeating: 0, count: 960)
        var index = 0
        try speech.withUnsafeBufferPointer { speech in
            try packet.withUnsafeMutableBytes { packet in
                try pcm.withUnsafeMutableBufferPointer { pcm in
                    let allocations = try Self.fewestAllocations {
                        let frame = UnsafeBufferPointer(rebasing: speech[(index % 60) * 960..<(index % 60 + 1) * 960])
                        index += 1
                        let bytes = try encoder.encode(frame, into: packet)
                        let payload = UnsafeRawBufferPointer(rebasing: packet[..<bytes])
                        _ = try OpusPacketInfo(payload).hasFEC
                        _ = try decoder.decodeFEC(from: payload, samplesPerChannel: 960, into: pcm)
                        _ = try decoder.decode(lost: 960, into: pcm)
                        _ = try decoder.decode(payload, into: pcm)
                        _ = try encoder.finalRange
                        _ = try decoder.finalRange
                    }
                    #expect(allocations == 0)
                }
            }
        }
    }

    @Test func speexProcessorsAndVAD() throws {
        let resampler = try Resampler(from: AudioFormat(sampleRate: 16_000, channels: 1), toSampleRate: 48_000)
        let canceller = try EchoCanceller(sampleRate: 16_000)
        let preprocessor = try Preprocessor(sampleRate: 16_000, configuration: PreprocessorConfiguration(automaticGainControl: true))
        try preprocessor.attach(canceller)
        var detector = EnergyVoiceActivityDetector(configuration: .init(sampleRate: 16_000))
        let near = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 0.02, seed: 1)
        let far = OpusTestAudio.speechLike(sampleRate: 16_000, seconds: 0.02, seed: 2)
        var output = [Int16](repeating: 0, count: 960)
        try near.withUnsafeBufferPointer { near in
            try far.withUnsafeBufferPointer { far in
                try output.withUnsafeMutableBufferPointer { output in
                    let frame = UnsafeMutableBufferPointer(rebasing: output[..<320])
                    let allocations = try Self.fewestAllocations {
                        _ = try resampler.process(near, into: output)
                        try canceller.cancel(captured: near, playback: far, into: frame)
                        try preprocessor.process(frame)
                        _ = detector.isSpeech(UnsafeBufferPointer(frame))
                    }
                    #expect(allocations == 0)
                }
            }
        }
    }
}
