import Codecs
import Foundation
import Testing

/// RFC 3389 comfort noise: payload format, analysis and generation at the right level.
@Suite("Comfort noise (RFC 3389)")
struct ComfortNoiseTests {
    /// `count` samples from `generator` after updating it with `parameters`.
    static func noise(_ parameters: ComfortNoiseParameters, count: Int, seed: UInt64 = 7) -> [Int16] {
        var generator = ComfortNoiseGenerator(seed: seed)
        generator.update(parameters)
        var samples = [Int16](repeating: 0, count: count)
        // Generate in 10 ms frames, as a decoder would.
        for start in stride(from: 0, to: count, by: 80) {
            samples[start..<min(count, start + 80)].withUnsafeMutableBufferPointer { generator.generate(into: $0) }
        }
        return samples
    }

    /// The level of `samples` in dBov (0 dBov = RMS 32 767).
    static func levelDBov(_ samples: [Int16]) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 20 * log10(meanSquare.squareRoot() / 32_767)
    }

    /// Lag-1 autocorrelation over energy: +1 for low-pass noise, about 0 for white, −1 high-pass.
    static func spectralTilt(_ samples: [Int16]) -> Double {
        let values = samples.map(Double.init)
        let lag1 = zip(values, values.dropFirst()).reduce(0.0) { $0 + $1.0 * $1.1 }
        return lag1 / values.reduce(0.0) { $0 + $1 * $1 }
    }

    @Test("white noise comes out at the payload's level", arguments: [-20, -30, -45, -60])
    func whiteNoiseLevel(level: Int) {
        let samples = Self.noise(ComfortNoiseParameters(levelDBov: level), count: 8000)
        #expect(abs(Self.levelDBov(samples) - Double(level)) < 0.3)
        #expect(abs(Self.spectralTilt(samples)) < 0.05)
    }

    @Test("shaped noise keeps the level and takes the spectrum's tilt", arguments: [Float(0.8), -0.8])
    func shapedNoise(firstCoefficient: Float) {
        let parameters = ComfortNoiseParameters(levelDBov: -35, reflectionCoefficients: [firstCoefficient, 0.2])
        let samples = Self.noise(parameters, count: 16_000)
        #expect(abs(Self.levelDBov(samples) + 35) < 1)
        // A(z) = 1 + k z⁻¹: a negative coefficient makes a low-pass synthesis filter.
        let tilt = Self.spectralTilt(samples)
        #expect(firstCoefficient < 0 ? tilt > 0.5 : tilt < -0.5, "tilt \(tilt)")
    }

    @Test("the same seed gives the same noise, another seed other noise")
    func seeded() {
        let parameters = ComfortNoiseParameters(levelDBov: -40)
        #expect(Self.noise(parameters, count: 400, seed: 3) == Self.noise(parameters, count: 400, seed: 3))
        #expect(Self.noise(parameters, count: 400, seed: 3) != Self.noise(parameters, count: 400, seed: 4))
    }

    @Test("payloads round-trip; the level byte is −dBov; coefficients are quantised by 1/128")
    func payloadRoundTrip() throws {
        let parameters = ComfortNoiseParameters(levelDBov: -42, reflectionCoefficients: [0.5, -0.25, 0.99])
        var bytes = [UInt8](repeating: 0, count: 8)
        let written = try bytes.withUnsafeMutableBytes { try parameters.serialize(into: $0) }
        #expect(written == 4 && parameters.payloadSize == 4)
        #expect(Array(bytes[..<4]) == [42, 191, 95, 254])
        let parsed = try bytes[..<4].withUnsafeBytes { try ComfortNoiseParameters(parsing: $0) }
        #expect(parsed == parameters)
        #expect(parsed.reflectionCoefficients == [0.5, -0.25, 0.9921875])
        // A level-only payload (the RFC 1890 draft form) and the reserved top bit.
        #expect(try [UInt8]([0x80 | 70]).withUnsafeBytes { try ComfortNoiseParameters(parsing: $0) } == .init(levelDBov: -70))
        #expect(ComfortNoiseParameters(levelDBov: -300).levelDBov == -127)
        #expect(ComfortNoiseParameters(levelDBov: 6).levelDBov == 0)
    }

    @Test("errors: empty payload, output too small")
    func errors() throws {
        let empty: [UInt8] = []
        #expect(throws: CodecError.invalidPayload("empty comfort noise payload")) {
            try empty.withUnsafeBytes { try ComfortNoiseParameters(parsing: $0) }
        }
        var small = [UInt8](repeating: 0, count: 1)
        let parameters = ComfortNoiseParameters(levelDBov: -50, reflectionCoefficients: [0.1])
        #expect(throws: CodecError.outputTooSmall(requiredBytes: 2, availableBytes: 1)) {
            try small.withUnsafeMutableBytes { try parameters.serialize(into: $0) }
        }
    }

    @Test("analysis recovers the level and the spectral shape of noise")
    func analysis() {
        let original = ComfortNoiseParameters(levelDBov: -33, reflectionCoefficients: [-0.7])
        let samples = Self.noise(original, count: 8000)
        let analyzed = samples.withUnsafeBufferPointer { ComfortNoiseParameters(analyzing: $0, modelOrder: 4) }
        #expect(analyzed.levelDBov == -33)
        #expect(analyzed.reflectionCoefficients.count == 4)
        #expect(abs(analyzed.reflectionCoefficients[0] + 0.7) < 0.05)
        let resynthesized = Self.noise(analyzed, count: 8000, seed: 99)
        #expect(abs(Self.spectralTilt(resynthesized) - Self.spectralTilt(samples)) < 0.1)
        let silence = [Int16](repeating: 0, count: 160)
        #expect(silence.withUnsafeBufferPointer { ComfortNoiseParameters(analyzing: $0) }.levelDBov == -127)
    }
}
