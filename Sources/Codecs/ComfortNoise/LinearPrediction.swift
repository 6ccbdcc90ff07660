/// The all-pole model arithmetic behind comfort noise. Predictor polynomials are
/// A(z) = 1 + a₁z⁻¹ + … + aₚz⁻ᵖ; the synthesis filter is 1 / A(z).
enum LinearPrediction {
    /// Levinson–Durbin: the reflection coefficients of the predictor fitting `autocorrelation`
    /// (lags 0 ... p). Stops early, padding with zeros, if the fit becomes unstable or the
    /// signal is silent.
    static func reflectionCoefficients(autocorrelation r: [Float]) -> [Float] {
        let order = r.count - 1
        guard order > 0 else { return [] }
        var predictor = [Float](repeating: 0, count: order + 1)
        var previous = predictor
        var reflection = [Float](repeating: 0, count: order)
        var error = r[0]
        for step in 1...order where error > 0 {
            var accumulator = r[step]
            for index in 1..<step {
                accumulator += predictor[index] * r[step - index]
            }
            let k = -accumulator / error
            guard abs(k) < 1 else { break }
            reflection[step - 1] = k
            previous = predictor
            predictor[step] = k
            for index in 1..<step {
                predictor[index] = previous[index] + k * previous[step - index]
            }
            error *= 1 - k * k
        }
        return reflection
    }

    /// Step-up recursion: writes the predictor a₁ ... aₚ of `reflection` into `predictor`
    /// (which must hold `reflection.count` values) using `scratch` of the same size.
    static func predictor(
        fromReflection reflection: UnsafeBufferPointer<Float>,
        into predictor: UnsafeMutableBufferPointer<Float>,
        scratch: UnsafeMutableBufferPointer<Float>
    ) {
        for step in 0..<reflection.count {
            let k = reflection[step]
            for index in 0..<step {
                scratch[index] = predictor[index]
            }
            for index in 0..<step {
                predictor[index] = scratch[index] + k * scratch[step - 1 - index]
            }
            predictor[step] = k
        }
    }
}
