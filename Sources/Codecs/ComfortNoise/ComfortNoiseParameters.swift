#if canImport(Glibc)
internal import Glibc  // libm, for logarithms and powers
#endif

/// The contents of an RFC 3389 comfort noise (CN) payload: the noise level and, optionally,
/// reflection coefficients of an all-pole model of the noise spectrum.
///
/// On the wire the first byte is the level as a positive number of −dBov (0 ... 127; the top bit
/// is reserved and ignored) and each further byte is one reflection coefficient `k`, quantised
/// as `q = round(128 k) + 127` (so `k = (q − 127) / 128`, the convention of the G.711 Appendix II
/// reference and of WebRTC). 0 dBov is the level of a full-scale 16-bit square wave (RMS 32 767).
public struct ComfortNoiseParameters: Sendable, Equatable {
    /// The quietest level a payload can carry, in dBov.
    public static let minimumLevelDBov = -127

    /// The noise level in dBov, −127 ... 0.
    public private(set) var levelDBov: Int
    /// Reflection coefficients, each in −1 ... 1 (as quantised on the wire); empty for white noise.
    public private(set) var reflectionCoefficients: [Float]

    /// Noise at `levelDBov` (clamped to −127 ... 0) shaped by `reflectionCoefficients`
    /// (each rounded to the wire's quantisation and clamped to −1 ... 1).
    public init(levelDBov: Int, reflectionCoefficients: [Float] = []) {
        self.levelDBov = min(0, max(Self.minimumLevelDBov, levelDBov))
        self.reflectionCoefficients = reflectionCoefficients.map { Self.dequantize(Self.quantize($0)) }
    }

    /// Parses a CN payload. Allocates only when it carries reflection coefficients.
    public init(parsing payload: UnsafeRawBufferPointer) throws(CodecError) {
        guard let levelByte = payload.first else {
            throw .invalidPayload("empty comfort noise payload")
        }
        levelDBov = -Int(levelByte & 0x7F)
        reflectionCoefficients = payload.dropFirst().map(Self.dequantize)
    }

    /// The bytes ``serialize(into:)`` writes: one for the level, one per coefficient.
    public var payloadSize: Int {
        1 + reflectionCoefficients.count
    }

    /// Writes the CN payload into `payload` and returns its length.
    public func serialize(into payload: UnsafeMutableRawBufferPointer) throws(CodecError) -> Int {
        guard payload.count >= payloadSize else {
            throw .outputTooSmall(requiredBytes: payloadSize, availableBytes: payload.count)
        }
        payload[0] = UInt8(-levelDBov)
        for (index, coefficient) in reflectionCoefficients.enumerated() {
            payload[1 + index] = Self.quantize(coefficient)
        }
        return payloadSize
    }

    /// The RMS amplitude, in 16-bit sample units, of noise at this level.
    public var rmsAmplitude: Float {
        Self.fullScaleRMS * pow(10, Float(levelDBov) / 20)
    }

    /// The RMS of a full-scale 16-bit square wave: the 0 dBov reference.
    static let fullScaleRMS: Float = 32_767

    /// A coefficient's wire byte.
    static func quantize(_ coefficient: Float) -> UInt8 {
        let clamped = min(1, max(-1, coefficient.isNaN ? 0 : coefficient))
        return UInt8(min(255, max(0, (clamped * 128).rounded() + 127)))
    }

    /// A wire byte's coefficient.
    static func dequantize(_ byte: UInt8) -> Float {
        (Float(byte) - 127) / 128
    }
}

extension ComfortNoiseParameters {
    /// Describes the background noise in `pcm`: its level and, when `modelOrder` > 0, that many
    /// reflection coefficients from a Levinson–Durbin fit of its spectrum.
    public init(analyzing pcm: UnsafeBufferPointer<Int16>, modelOrder: Int = 0) {
        let order = max(0, min(modelOrder, pcm.count - 1))
        var autocorrelation = [Float](repeating: 0, count: order + 1)
        for lag in 0...order {
            var sum: Float = 0
            for index in lag..<pcm.count {
                sum += Float(pcm[index]) * Float(pcm[index - lag])
            }
            autocorrelation[lag] = sum
        }
        let meanSquare = autocorrelation[0] / Float(max(1, pcm.count))
        let level = meanSquare > 0 ? (20 * log10(meanSquare.squareRoot() / Self.fullScaleRMS)).rounded() : -127
        self.init(
            levelDBov: Int(max(Float(Self.minimumLevelDBov), min(0, level))),
            reflectionCoefficients: LinearPrediction.reflectionCoefficients(autocorrelation: autocorrelation)
        )
    }
}
