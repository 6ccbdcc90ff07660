/// The conversion from the transmission rating R to an estimated mean opinion score, MOS-CQE,
/// of ITU-T G.107 (06/2015) Annex B, equation B-4.
public enum MeanOpinionScore {
    /// MOS-CQE for a narrowband R (G.107 Annex B, equation B-4):
    ///
    /// - R < 6.5: 1 (the lower bound of the 2011 and later editions, where the cubic
    ///   crosses 1 and would otherwise dip below it);
    /// - 6.5 ≤ R ≤ 100: 1 + 0.035 R + R (R − 60) (100 − R) · 7·10⁻⁶;
    /// - R > 100: 4.5.
    public static func fromRFactor(_ r: Double) -> Double {
        if r < 6.5 { return 1 }
        if r > 100 { return 4.5 }
        return 1 + 0.035 * r + r * (r - 60) * (100 - r) * 7e-6
    }

    /// MOS-CQE for an R on the scale of `bandwidth`: the wideband and fullband R are first
    /// divided by 1.29 (G.107.1 Annex A) or 1.48 (G.107.2 Annex A), then converted with
    /// ``fromRFactor(_:)``.
    public static func fromRFactor(_ r: Double, bandwidth: SpeechBandwidth) -> Double {
        fromRFactor(r / bandwidth.rScaleFactor)
    }
}
