#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The simultaneous impairment factor Is = Iolr + Ist + Iq and its parts (ITU-T G.107 (06/2015)
/// §7.3, equations 7-8 to 7-17).
public struct SimultaneousImpairmentTerms: Sendable, Hashable, Codable {
    /// Xolr, the overall loudness rating adjusted for noise (equation 7-10).
    public var adjustedOverallLoudness: Double
    /// Iolr, the impairment of too low a loudness (equation 7-9).
    public var loudnessImpairment: Double
    /// STMRo, the sidetone masking rating including the talker-echo path (equation 7-12).
    public var optimumSidetoneMaskingRating: Double
    /// Ist, the impairment of non-optimum sidetone (equation 7-11).
    public var sidetoneImpairment: Double
    /// Q, the quantizing distortion in dB from qdu (equation 7-17).
    public var quantizingDistortion: Double
    /// G, the intermediate of equation 7-16.
    public var g: Double
    /// Y, the intermediate of equation 7-15.
    public var y: Double
    /// Z, the intermediate of equation 7-14.
    public var z: Double
    /// Iq, the impairment of quantizing distortion (equation 7-13).
    public var quantizingImpairment: Double
    /// Is = Iolr + Ist + Iq (equation 7-8).
    public var total: Double

    init(_ p: EModelParameters, noise: NoiseTerms) {
        let xolr = p.overallLoudnessRating + 0.2 * (64 + noise.totalNoise - p.receiveLoudnessRating)
        adjustedOverallLoudness = xolr
        loudnessImpairment = 20 * (pow(1 + pow(xolr / 8, 8), 1.0 / 8) - xolr / 8)

        let stmro =
            -10
            * log10(
                pow(10, -p.sidetoneMaskingRating / 10)
                    + exp(-p.echoPathDelayMilliseconds / 4) * pow(10, -p.talkerEchoLoudnessRating / 10))
        optimumSidetoneMaskingRating = stmro
        sidetoneImpairment =
            12 * pow(1 + pow((stmro - 13) / 6, 8), 1.0 / 8)
            - 28 * pow(1 + pow((stmro + 1) / 19.4, 35), 1.0 / 35)
            - 13 * pow(1 + pow((stmro - 3) / 33, 13), 1.0 / 13) + 29

        quantizingDistortion = 37 - 15 * log10(p.quantizingDistortionUnits)
        let q = quantizingDistortion
        g = 1.07 + 0.258 * q + 0.0602 * q * q
        y = (noise.basicSignalToNoiseRatio - 100) / 15 + 46 / 8.4 - g / 9
        z = 46.0 / 30 - g / 40
        quantizingImpairment = 15 * log10(1 + pow(10, y) + pow(10, z))
        total = loudnessImpairment + sidetoneImpairment + quantizingImpairment
    }
}
