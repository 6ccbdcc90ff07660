#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Double {
    /// This value with exactly `decimals` digits after the point, rounded half away from zero,
    /// without Foundation (for the text renderings of this module).
    package func formatted(decimals: Int) -> String {
        guard isFinite else { return String(self) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        guard scaled < 9.0e15 else { return String(self) }
        let digits = UInt64(scaled)
        let whole = digits / UInt64(scale)
        let fraction = digits % UInt64(scale)
        let sign = self < 0 && digits != 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        let padding = String(repeating: "0", count: decimals - fractionText.count)
        return "\(sign)\(whole).\(padding)\(fractionText)"
    }
}
