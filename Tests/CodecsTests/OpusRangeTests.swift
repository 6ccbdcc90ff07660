import BenchmarkHarness
import Codecs
import Foundation
import Testing
import TestSupport

/// Our wrapper against a plain C program driving libopus (Benchmarks/peers/opus_range.c, built
/// with `cc` by the benchmark harness' `PeerProgram`): with the same settings and input, every
/// packet's bytes and both final ranges must be identical.
@Suite("Opus final range against plain C")
struct OpusRangeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let configuration: OpusEncoderConfiguration
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "48 kHz mono 20 ms VOIP c5 FEC DTX",
            configuration: OpusEncoderConfiguration(
                complexity: 5, inbandFEC: true, expectedPacketLossPercent: 10, discontinuousTransmission: true)),
        Case(
            name: "48 kHz mono 20 ms VOIP c10 32 kb/s FEC DTX",
            configuration: OpusEncoderConfiguration(
                bitrate: .bitsPerSecond(32_000), complexity: 10, inbandFEC: true, expectedPacketLossPercent: 5,
                discontinuousTransmission: true)),
        Case(
            name: "48 kHz stereo 20 ms VOIP c5 64 kb/s FEC DTX",
            configuration: OpusEncoderConfiguration(
                format: AudioFormat(sampleRate: 48_000, channels: 2), bitrate: .bitsPerSecond(64_000),
                inbandFEC: true, expectedPacketLossPercent: 10, discontinuousTransmission: true)),
        Case(
            name: "16 kHz mono 20 ms VOIP c5 24 kb/s FEC DTX",
            configuration: OpusEncoderConfiguration(
                format: AudioFormat(sampleRate: 16_000, channels: 1), bitrate: .bitsPerSecond(24_000),
                inbandFEC: true, expectedPacketLossPercent: 10, discontinuousTransmission: true)),
        Case(
            name: "8 kHz mono 60 ms VOIP c3 CBR 12 kb/s",
            configuration: OpusEncoderConfiguration(
                format: AudioFormat(sampleRate: 8000, channels: 1), frameDuration: .milliseconds60,
                bitrate: .bitsPerSecond(12_000), complexity: 3, bitrateMode: .constant)),
        Case(
            name: "24 kHz stereo 10 ms restricted-lowdelay unconstrained VBR",
            configuration: OpusEncoderConfiguration(
                format: AudioFormat(sampleRate: 24_000, channels: 2), frameDuration: .milliseconds10,
                application: .restrictedLowDelay, bitrate: .bitsPerSecond(48_000), bitrateMode: .variable)),
        Case(
            name: "12 kHz mono 40 ms audio wideband cap",
            configuration: OpusEncoderConfiguration(
                format: AudioFormat(sampleRate: 12_000, channels: 1), frameDuration: .milliseconds40,
                application: .audio, maxBandwidth: .wideband)),
    ]

    static let peer = PeerProgram("opus_range", pkgConfigPackages: ["opus"])
    /// Built once, before the cases run in parallel (concurrent builds would share a temporary file).
    static let peerBuild = Result<URL, any Error> { try peer.build() }

    @Test(arguments: cases)
    func everyPacketMatchesPlainC(_ testCase: Case) throws {
        let configuration = testCase.configuration
        let format = configuration.format
        let folder = try OpusTestAudio.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mono = OpusTestAudio.speechLike(sampleRate: format.sampleRate, seconds: 4)
        let pcm =
            format.channels == 1
            ? mono : OpusTestAudio.interleave(mono, OpusTestAudio.speechLike(sampleRate: format.sampleRate, seconds: 4, seed: 2))
        let input = folder.appendingPathComponent("input.raw")
        try OpusTestAudio.writeRaw(pcm, to: input)

        let ours = try Self.ourLines(pcm, configuration)
        _ = try Self.peerBuild.get()
        let theirs = try Self.peer.run(["range", input.path] + Self.peerArguments(configuration))
            .split(separator: "\n").map(String.init)

        #expect(ours.count == pcm.count / (configuration.frameDuration.samplesPerChannel(sampleRate: format.sampleRate) * format.channels))
        #expect(ours.count == theirs.count)
        let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            firstDifference == nil,
            "packet \(firstDifference ?? -1) differs: \(firstDifference.map { ours[$0].prefix(40) } ?? "") vs \(firstDifference.map { theirs[$0].prefix(40) } ?? "")"
        )
    }

    /// "<bytes> <encoder range> <decoder range> <hex>" per packet, as opus_range prints them.
    static func ourLines(_ pcm: [Int16], _ configuration: OpusEncoderConfiguration) throws -> [String] {
        let encoder = try OpusEncoder(configuration: configuration)
        let decoder = try OpusDecoder(format: configuration.format)
        let step = encoder.samplesPerFrame * configuration.format.channels
        var packet = [UInt8](repeating: 0, count: OpusEncoder.maximumPacketBytes)
        var decoded = [Int16](repeating: 0, count: 5760 * configuration.format.channels)
        var lines: [String] = []
        for start in stride(from: 0, through: pcm.count - step, by: step) {
            let bytes = try pcm[start..<start + step].withUnsafeBufferPointer { frame in
                try packet.withUnsafeMutableBytes { try encoder.encode(frame, into: $0) }
            }
            let encoderRange = try encoder.finalRange
            _ = try packet.withUnsafeBytes { payload in
                try decoded.withUnsafeMutableBufferPointer { try decoder.decode(UnsafeRawBufferPointer(rebasing: payload[..<bytes]), into: $0) }
            }
            let hex = packet[..<bytes].map { String(format: "%02x", $0) }.joined()
            lines.append("\(bytes) \(encoderRange) \(try decoder.finalRange) \(hex)")
        }
        return lines
    }

    /// The peer's arguments for `configuration`, in libopus' numeric constants.
    static func peerArguments(_ configuration: OpusEncoderConfiguration) -> [String] {
        let application =
            switch configuration.application {
            case .voip: 2048
            case .audio: 2049
            case .restrictedLowDelay: 2051
            }
        let bitrate =
            switch configuration.bitrate {
            case .automatic: -1000
            case .maximum: -1
            case let .bitsPerSecond(value): value
            }
        let values: [Int] = [
            configuration.format.sampleRate, configuration.format.channels,
            configuration.frameDuration.samplesPerChannel(sampleRate: configuration.format.sampleRate),
            application, configuration.complexity, bitrate,
            configuration.bitrateMode == .constant ? 0 : 1,
            configuration.bitrateMode == .constrainedVariable ? 1 : 0,
            configuration.inbandFEC ? 1 : 0, configuration.expectedPacketLossPercent,
            configuration.discontinuousTransmission ? 1 : 0,
            1101 + configuration.maxBandwidth.rawValue,
        ]
        return values.map(String.init)
    }
}
