/// Turns ``ComfortNoiseParameters`` into noise: seeded white noise at the payload's level,
/// shaped by its all-pole spectral model when it has reflection coefficients.
///
/// The excitation is scaled by √∏(1 − kᵢ²), the inverse of the synthesis filter's power gain,
/// so shaped noise keeps the level the payload asks for. At most ``maximumModelOrder``
/// coefficients are used (RFC 3389 lets a decoder drop the higher ones). Generating allocates
/// nothing; ``update(_:)`` only copies into fixed buffers.
public struct ComfortNoiseGenerator: Sendable {
    /// The highest model order used.
    public static let maximumModelOrder = 16

    /// The parameters of the noise being generated.
    public private(set) var parameters = ComfortNoiseParameters(levelDBov: ComfortNoiseParameters.minimumLevelDBov)
    /// The reflection coefficients in use, kept inside the unit circle.
    private var reflection: [Float]
    /// Predictor a₁ ... aₚ of the synthesis filter (only the first `order` are used).
    private var predictor: [Float]
    /// Scratch space for the step-up recursion.
    private var scratch: [Float]
    /// The last `order` outputs of the synthesis filter, most recent first.
    private var memory: [Float]
    /// The model order in use.
    private var order = 0
    /// The excitation amplitude: uniform noise in ±amplitude.
    private var amplitude: Float = 0
    /// The state of the xorshift64* generator (never zero).
    private var randomState: UInt64

    /// A silent generator whose noise sequence is fixed by `seed`.
    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        // Four separate buffers: sharing one array's storage would copy it at the first write.
        reflection = [Float](repeating: 0, count: Self.maximumModelOrder)
        predictor = [Float](repeating: 0, count: Self.maximumModelOrder)
        scratch = [Float](repeating: 0, count: Self.maximumModelOrder)
        memory = [Float](repeating: 0, count: Self.maximumModelOrder)
        randomState = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    /// Starts generating noise described by `parameters` (for example, a new CN packet).
    public mutating func update(_ parameters: ComfortNoiseParameters) {
        self.parameters = parameters
        order = min(parameters.reflectionCoefficients.count, Self.maximumModelOrder)
        var powerGain: Float = 1
        for index in 0..<order {
            // A coefficient of magnitude 1 would make the filter unstable: keep it just inside.
            let k = max(-0.99, min(0.99, parameters.reflectionCoefficients[index]))
            reflection[index] = k
            powerGain *= 1 - k * k
        }
        let order = order
        reflection.withUnsafeBufferPointer { reflection in
            predictor.withUnsafeMutableBufferPointer { predictor in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    LinearPrediction.predictor(
                        fromReflection: UnsafeBufferPointer(rebasing: reflection[..<order]),
                        into: predictor,
                        scratch: scratch
                    )
                }
            }
        }
        memory.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        // Uniform noise in ±A has RMS A / √3.
        amplitude = parameters.rmsAmplitude * (3 * powerGain).squareRoot()
    }

    /// Fills `pcm` with comfort noise.
    public mutating func generate(into pcm: UnsafeMutableBufferPointer<Int16>) {
        let order = order
        for index in pcm.indices {
            var value = amplitude * nextUniform()
            predictor.withUnsafeBufferPointer { predictor in
                memory.withUnsafeMutableBufferPointer { memory in
                    for tap in 0..<order {
                        value -= predictor[tap] * memory[tap]
                    }
                    for tap in stride(from: order - 1, to: 0, by: -1) {
                        memory[tap] = memory[tap - 1]
                    }
                    if order > 0 { memory[0] = value }
                }
            }
            // The filter is stable, so `value` is finite; saturate anyway rather than trap.
            pcm[index] = value.isFinite ? Int16(max(-32_768, min(32_767, value))) : 0
        }
    }

    /// The next number of a uniform distribution on −1 ..< 1 (xorshift64*).
    private mutating func nextUniform() -> Float {
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        let bits = (randomState &* 0x2545_F491_4F6C_DD1D) >> 40  // 24 random bits
        return Float(bits) / Float(1 << 23) - 1
    }
}
