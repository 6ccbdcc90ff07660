/// The audio bandwidth a connection is rated for, which selects the E-model variant and its
/// R scale.
///
/// - ``narrowband``: ITU-T G.107 (300–3400 Hz), R from 0 to 100.
/// - ``wideband``: ITU-T G.107.1 (50–7000 Hz), R from 0 to 129.
/// - ``fullband``: ITU-T G.107.2 (20–20000 Hz), R from 0 to 148.
///
/// The wideband and fullband variants use their Recommendation's basic signal-to-noise ratio
/// (Ro,WB = 129, Ro,FB = 148) and take no simultaneous impairment (Is = 0: their current
/// editions do not model loudness, sidetone, circuit noise or quantizing distortion). This
/// implementation computes their delay impairment with the narrowband equations of G.107 §7.4
/// (with the variant's Ro in equation 7-25) and their Ie,eff with equation 7-29; whether
/// G.107.1 or G.107.2 scale Id differently could not be checked against their text here.
public enum SpeechBandwidth: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// 300–3400 Hz, ITU-T G.107.
    case narrowband
    /// 50–7000 Hz, ITU-T G.107.1.
    case wideband
    /// 20–20000 Hz, ITU-T G.107.2.
    case fullband

    /// Ro for the wideband and fullband variants (G.107.1 §7.2: 129; G.107.2 §7.2: 148);
    /// `nil` for narrowband, whose Ro is computed from the noise terms (G.107 equation 7-2).
    public var fixedBasicSignalToNoiseRatio: Double? {
        switch self {
        case .narrowband: nil
        case .wideband: 129
        case .fullband: 148
        }
    }

    /// The factor that maps this variant's R onto the narrowband scale before the MOS
    /// conversion of G.107 Annex B: 1, 1.29 (G.107.1 Annex A) or 1.48 (G.107.2 Annex A).
    public var rScaleFactor: Double {
        switch self {
        case .narrowband: 1
        case .wideband: 1.29
        case .fullband: 1.48
        }
    }

    /// The Recommendation that defines this variant, for reports.
    public var recommendation: String {
        switch self {
        case .narrowband: "ITU-T G.107 (06/2015)"
        case .wideband: "ITU-T G.107.1"
        case .fullband: "ITU-T G.107.2"
        }
    }

    /// The raw value: `narrowband`, `wideband` or `fullband`.
    public var description: String { rawValue }
}
