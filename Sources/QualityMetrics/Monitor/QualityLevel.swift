/// A coarse call-quality grade for a network-quality indicator, from MOS-CQE.
///
/// The thresholds are the MOS-CQE values of G.107 Annex B (equation B-4) at R = 90, 80, 70 and
/// 60, the bounds of the user-satisfaction categories of G.107 Table B.1 ("very satisfied",
/// "satisfied", "some users dissatisfied", "many users dissatisfied", "nearly all users
/// dissatisfied"), rounded to one decimal:
///
/// | level | MOS-CQE | R (narrowband) |
/// |---|---|---|
/// | ``excellent`` | ≥ 4.3 | ≥ 90 |
/// | ``good`` | ≥ 4.0 | ≥ 80 |
/// | ``fair`` | ≥ 3.6 | ≥ 70 |
/// | ``poor`` | ≥ 3.1 | ≥ 60 |
/// | ``bad`` | < 3.1 | < 60 |
public enum QualityLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// MOS 4.3 or more: users very satisfied.
    case excellent
    /// MOS 4.0 to 4.3: satisfied.
    case good
    /// MOS 3.6 to 4.0: some users dissatisfied.
    case fair
    /// MOS 3.1 to 3.6: many users dissatisfied.
    case poor
    /// MOS below 3.1: nearly all users dissatisfied.
    case bad

    /// The level of a MOS-CQE value.
    public init(meanOpinionScore mos: Double) {
        self =
            switch mos {
            case 4.3...: .excellent
            case 4.0...: .good
            case 3.6...: .fair
            case 3.1...: .poor
            default: .bad
            }
    }

    /// Orders from worst to best: `bad < poor < fair < good < excellent`.
    public static func < (lhs: QualityLevel, rhs: QualityLevel) -> Bool {
        rank(lhs) < rank(rhs)
    }

    private static func rank(_ level: QualityLevel) -> Int {
        switch level {
        case .bad: 0
        case .poor: 1
        case .fair: 2
        case .good: 3
        case .excellent: 4
        }
    }
}
