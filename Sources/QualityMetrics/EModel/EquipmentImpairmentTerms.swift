/// The effective equipment impairment factor Ie,eff of a codec under packet loss (ITU-T G.107
/// (06/2015) §7.5, equation 7-29).
public struct EquipmentImpairmentTerms: Sendable, Hashable, Codable {
    /// Ie, the codec's impairment at zero loss.
    public var equipmentImpairment: Double
    /// Bpl, the codec's packet-loss robustness.
    public var packetLossRobustness: Double
    /// Ppl, the packet-loss probability in percent.
    public var packetLossPercent: Double
    /// BurstR, the burst ratio.
    public var burstRatio: Double
    /// Ie,eff = Ie + (95 − Ie) · Ppl / (Ppl / BurstR + Bpl) (equation 7-29).
    public var effectiveEquipmentImpairment: Double

    init(_ p: EModelParameters) {
        equipmentImpairment = p.equipmentImpairment
        packetLossRobustness = p.packetLossRobustness
        packetLossPercent = p.packetLossPercent
        burstRatio = p.burstRatio
        effectiveEquipmentImpairment =
            p.equipmentImpairment
            + (95 - p.equipmentImpairment) * p.packetLossPercent
            / (p.packetLossPercent / p.burstRatio + p.packetLossRobustness)
    }
}
