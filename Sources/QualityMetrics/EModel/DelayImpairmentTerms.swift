#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The delay impairment factor Id = Idte + Idle + Idd and its parts (ITU-T G.107 (06/2015)
/// §7.4, equations 7-18 to 7-28).
public struct DelayImpairmentTerms: Sendable, Hashable, Codable {
    /// TERV, the talker echo rating corrected for the echo delay, including the low-STMR
    /// correction TERVs = TERV + Ist/2 when STMR < 9 dB (equations 7-22 and 7-23).
    public var talkerEchoRating: Double
    /// Re, the echo rating (equation 7-21).
    public var echoRating: Double
    /// Roe, the signal-to-noise ratio seen by the echo (equation 7-20).
    public var echoSignalToNoiseRatio: Double
    /// Idte, the talker-echo impairment (equation 7-19), replaced by √(Idte² + Ist²) when
    /// STMR > 20 dB (equation 7-24), and zero when T < 1 ms (talker echo then counts as
    /// sidetone, §7.4).
    public var talkerEchoImpairment: Double
    /// Rle, the listener-echo rating (equation 7-26).
    public var listenerEchoRating: Double
    /// Idle, the listener-echo impairment (equation 7-25).
    public var listenerEchoImpairment: Double
    /// X = log2(Ta / mT), the delay above the minimum perceivable delay in octaves (equation
    /// 7-28); zero when Ta ≤ mT.
    public var delayOctaves: Double
    /// Idd, the impairment of absolute delay Ta (equation 7-27).
    public var absoluteDelayImpairment: Double
    /// Id = Idte + Idle + Idd (equation 7-18).
    public var total: Double

    /// - Parameters:
    ///   - totalNoise: No (equation 7-3).
    ///   - basicSignalToNoiseRatio: Ro of the variant being rated (used by equation 7-25).
    ///   - sidetoneImpairment: Ist (equation 7-11), used by equations 7-23 and 7-24.
    init(_ p: EModelParameters, totalNoise: Double, basicSignalToNoiseRatio: Double, sidetoneImpairment: Double) {
        let t = p.echoPathDelayMilliseconds
        var terv = p.talkerEchoLoudnessRating - 40 * log10((1 + t / 10) / (1 + t / 150)) + 6 * exp(-0.3 * t * t)
        if p.sidetoneMaskingRating < 9 {
            terv += sidetoneImpairment / 2
        }
        talkerEchoRating = terv
        echoRating = 80 + 2.5 * (terv - 14)
        echoSignalToNoiseRatio = -1.5 * (totalNoise - p.receiveLoudnessRating)
        talkerEchoImpairment = Self.talkerEcho(
            echoSignalToNoiseRatio: echoSignalToNoiseRatio, echoRating: echoRating,
            echoPathDelayMilliseconds: t, sidetoneMaskingRating: p.sidetoneMaskingRating,
            sidetoneImpairment: sidetoneImpairment)

        listenerEchoRating = 10.5 * (p.weightedEchoPathLoss + 7) * pow(p.roundTripDelayMilliseconds + 1, -0.25)
        let half = (basicSignalToNoiseRatio - listenerEchoRating) / 2
        listenerEchoImpairment = half + (half * half + 169).squareRoot()

        let ta = p.absoluteDelayMilliseconds
        let mT = p.delaySensitivity.minimumPerceivableDelayMilliseconds
        if ta <= mT {
            delayOctaves = 0
            absoluteDelayImpairment = 0
        } else {
            let x = log10(ta / mT) / log10(2)
            let e = 6 * p.delaySensitivity.sensitivity
            delayOctaves = x
            absoluteDelayImpairment = 25 * (pow(1 + pow(x, e), 1 / e) - 3 * pow(1 + pow(x / 3, e), 1 / e) + 2)
        }
        total = talkerEchoImpairment + listenerEchoImpairment + absoluteDelayImpairment
    }

    private static func talkerEcho(
        echoSignalToNoiseRatio roe: Double, echoRating re: Double, echoPathDelayMilliseconds t: Double,
        sidetoneMaskingRating stmr: Double, sidetoneImpairment ist: Double
    ) -> Double {
        guard t >= 1 else { return 0 }
        let difference = roe - re
        let idte = (difference / 2 + (difference * difference / 4 + 100).squareRoot() - 1) * (1 - exp(-t))
        guard stmr > 20 else { return idte }
        return (idte * idte + ist * ist).squareRoot()
    }
}
