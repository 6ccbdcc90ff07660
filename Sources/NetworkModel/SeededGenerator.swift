#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small, fast, seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
///
/// The same seed gives the same sequence on every machine and every run, so a generated network
/// trace is reproducible from its seed alone. It is not cryptographically secure.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose whole sequence is determined by `seed`.
    public init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, by: 45)
        return result
    }

    /// A uniform value in the half-open interval [0, 1), with 53 random bits.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Whether an event of probability `probability` happens this time.
    public mutating func nextBernoulli(_ probability: Double) -> Bool {
        nextUnitInterval() < probability
    }

    /// A standard normal value (mean 0, standard deviation 1), by the Box–Muller transform.
    public mutating func nextStandardNormal() -> Double {
        let u1 = 1 - nextUnitInterval()  // (0, 1]: keeps log finite
        let u2 = nextUnitInterval()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// An exponential value of mean `mean`.
    public mutating func nextExponential(mean: Double) -> Double {
        -mean * log(1 - nextUnitInterval())
    }

    /// A gamma value of shape `shape` and scale 1 (Marsaglia–Tsang; shapes below 1 are boosted).
    public mutating func nextGamma(shape: Double) -> Double {
        if shape < 1 {
            let boost = pow(1 - nextUnitInterval(), 1 / shape)
            return nextGamma(shape: shape + 1) * boost
        }
        let d = shape - 1.0 / 3.0
        let c = 1 / (9 * d).squareRoot()
        while true {
            let x = nextStandardNormal()
            let v0 = 1 + c * x
            guard v0 > 0 else { continue }
            let v = v0 * v0 * v0
            let u = 1 - nextUnitInterval()
            if log(u) < 0.5 * x * x + d - d * v + d * log(v) {
                return d * v
            }
        }
    }

    private func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }
}
