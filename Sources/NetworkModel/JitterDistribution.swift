#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The distribution of the extra delay each packet gets on top of the base delay, parameterised
/// like netem's tables by a mean and a standard deviation in milliseconds.
public enum JitterDistribution: Sendable, Equatable, CustomStringConvertible {
    /// No jitter: every packet gets exactly the base delay.
    case none
    /// Normal (netem's `normal` table): symmetric around `mean`; a negative sample shortens the
    /// base delay (the total delay is never below zero).
    case normal(meanMilliseconds: Double, standardDeviationMilliseconds: Double)
    /// Gamma: non-negative and right-skewed, the shape of queueing delay on a loaded link.
    case gamma(meanMilliseconds: Double, standardDeviationMilliseconds: Double)
    /// Pareto (type I, netem's `pareto` table): a floor and a heavy tail of rare long delays.
    /// The shape is chosen so that the mean and standard deviation are the given ones.
    case pareto(meanMilliseconds: Double, standardDeviationMilliseconds: Double)

    /// The mean of the extra delay in milliseconds.
    public var meanMilliseconds: Double {
        switch self {
        case .none: 0
        case let .normal(mean, _), let .gamma(mean, _), let .pareto(mean, _): mean
        }
    }

    /// The standard deviation of the extra delay in milliseconds.
    public var standardDeviationMilliseconds: Double {
        switch self {
        case .none: 0
        case let .normal(_, deviation), let .gamma(_, deviation), let .pareto(_, deviation): deviation
        }
    }

    /// One extra delay in milliseconds.
    public func sample(using generator: inout SeededGenerator) -> Double {
        switch self {
        case .none:
            return 0
        case let .normal(mean, deviation):
            return mean + deviation * generator.nextStandardNormal()
        case let .gamma(mean, deviation):
            guard mean > 0, deviation > 0 else { return max(mean, 0) }
            let shape = (mean * mean) / (deviation * deviation)
            let scale = (deviation * deviation) / mean
            return generator.nextGamma(shape: shape) * scale
        case let .pareto(mean, deviation):
            guard mean > 0, deviation > 0 else { return max(mean, 0) }
            // Mean αx/(α−1) and variance x²α/((α−1)²(α−2)) solved for α and the floor x.
            let shape = 1 + (1 + (mean * mean) / (deviation * deviation)).squareRoot()
            let floor = mean * (shape - 1) / shape
            return floor / pow(1 - generator.nextUnitInterval(), 1 / shape)
        }
    }

    /// For example "gamma(mean 20 ms, sd 10 ms)".
    public var description: String {
        switch self {
        case .none: "none"
        case let .normal(mean, deviation): "normal(mean \(mean) ms, sd \(deviation) ms)"
        case let .gamma(mean, deviation): "gamma(mean \(mean) ms, sd \(deviation) ms)"
        case let .pareto(mean, deviation): "pareto(mean \(mean) ms, sd \(deviation) ms)"
        }
    }
}
