/// How sensitive the users of a service are to absolute one-way delay: the parameters `mT` and
/// `sT` of the delay impairment `Idd` (ITU-T G.107 (06/2015) §7.4, equations 7-27 and 7-28,
/// Table 1).
///
/// Carrier- and enterprise-grade telephony must be rated with ``default``; G.107 offers the
/// other classes for services whose users tolerate more delay (for example push-to-talk or
/// some conferencing). Any other pair can be made with ``init(name:minimumPerceivableDelayMilliseconds:sensitivity:)``.
///
/// The ``default`` pair (mT = 100 ms, sT = 1) is also cross-checked against the Idd equation of
/// the 2005–2011 editions, which it reproduces. The ``low`` and ``veryLow`` pairs are G.107
/// (06/2015) Table 1's values as this implementation records them; no second copy of that table
/// was at hand to cross-check them.
public struct DelaySensitivity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A short name for reports, such as `"default"`.
    public var name: String
    /// `mT`, the minimum perceivable delay in milliseconds: below it, `Idd` is zero.
    public var minimumPerceivableDelayMilliseconds: Double
    /// `sT`, the delay sensitivity: how steeply `Idd` grows above `mT` (smaller is gentler).
    public var sensitivity: Double

    /// A delay-sensitivity class with the given `mT` (milliseconds) and `sT`.
    public init(name: String, minimumPerceivableDelayMilliseconds: Double, sensitivity: Double) {
        self.name = name
        self.minimumPerceivableDelayMilliseconds = minimumPerceivableDelayMilliseconds
        self.sensitivity = sensitivity
    }

    /// G.107 Table 1, "default" (mT = 100 ms, sT = 1): the class to use whenever the users'
    /// delay requirements are unknown, and always for carrier- and enterprise-grade telephony.
    public static let `default` = DelaySensitivity(
        name: "default", minimumPerceivableDelayMilliseconds: 100, sensitivity: 1)

    /// G.107 Table 1, "low sensitivity" (mT = 120 ms, sT = 0.55).
    public static let low = DelaySensitivity(
        name: "low", minimumPerceivableDelayMilliseconds: 120, sensitivity: 0.55)

    /// G.107 Table 1, "very low sensitivity" (mT = 150 ms, sT = 0.4).
    public static let veryLow = DelaySensitivity(
        name: "very-low", minimumPerceivableDelayMilliseconds: 150, sensitivity: 0.4)

    /// The three classes of G.107 Table 1, in the table's order.
    public static let allStandard: [DelaySensitivity] = [.default, .low, .veryLow]

    /// The class of G.107 Table 1 with this ``name`` (`"default"`, `"low"`, `"very-low"`).
    public static func standard(named name: String) -> DelaySensitivity? {
        allStandard.first { $0.name == name }
    }

    /// The name with its two parameters, for example `default (mT 100 ms, sT 1)`.
    public var description: String {
        "\(name) (mT \(minimumPerceivableDelayMilliseconds.formatted(decimals: 0)) ms, sT \(sensitivity.formatted(decimals: 2)))"
    }
}
