extension QualityReport: CustomStringConvertible {
    /// One line for a console, with the interval's loss, such as
    /// `t=3s MOS 4.31 R 88.2 jitter 3.1 ms latency 74 ms loss 0.5 % (after JB 0.8 %) rtt 12 ms`.
    /// Values not known yet are shown as `-`.
    public var description: String {
        let mos = meanOpinionScore.map { $0.formatted(decimals: 2) } ?? "-"
        let r = rFactor.map { $0.formatted(decimals: 1) } ?? "-"
        let rtt = roundTripMilliseconds.map { $0.formatted(decimals: 0) + " ms" } ?? "-"
        return "t=\(elapsedSeconds.formatted(decimals: 0))s MOS \(mos) R \(r)"
            + " jitter \(jitterMilliseconds.formatted(decimals: 1)) ms"
            + " latency \(latency.totalMilliseconds.formatted(decimals: 0)) ms"
            + " loss \(intervalLoss.networkLossPercent.formatted(decimals: 1)) %"
            + " (after JB \(intervalLoss.effectiveLossPercent.formatted(decimals: 1)) %)"
            + " rtt \(rtt)"
    }
}
