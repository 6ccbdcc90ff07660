/// The E-model of ITU-T G.107 (06/2015): the transmission rating factor
/// R = Ro − Is − Id − Ie,eff + A (equation 7-1) with every term, and MOS-CQE (Annex B).
///
/// ```swift
/// var parameters = EModelParameters()
/// parameters.packetLossPercent = 2
/// if let g711 = CodecImpairmentTable.standard.entry(forEncodingName: "PCMU") {
///     parameters = try parameters.applying(g711)  // Ie 0, Bpl 25.1 (with concealment)
/// }
/// let result = try EModel.evaluate(parameters)
/// print(result)           // every term, one per line
/// result.rFactor          // 86.2
/// ```
public enum EModel {
    /// Rates a connection: every term of equation 7-1, R, and the mean opinion scores.
    ///
    /// - Throws: ``EModelError/invalidParameter(symbol:value:requirement:)`` when a parameter
    ///   makes an equation undefined (see ``EModelParameters/validate()``).
    public static func evaluate(_ parameters: EModelParameters) throws(EModelError) -> EModelResult {
        try parameters.validate()
        let noise = NoiseTerms(parameters)
        let simultaneous = SimultaneousImpairmentTerms(parameters, noise: noise)
        let narrowband = parameters.bandwidth == .narrowband
        let ro = parameters.bandwidth.fixedBasicSignalToNoiseRatio ?? noise.basicSignalToNoiseRatio
        let simultaneousImpairment = narrowband ? simultaneous.total : 0
        let delay = DelayImpairmentTerms(
            parameters, totalNoise: noise.totalNoise, basicSignalToNoiseRatio: ro,
            sidetoneImpairment: simultaneous.sidetoneImpairment)
        let equipment = EquipmentImpairmentTerms(parameters)
        let listeningR =
            ro - simultaneousImpairment - equipment.effectiveEquipmentImpairment
            + parameters.advantageFactor
        return EModelResult(
            parameters: parameters,
            noise: narrowband ? noise : nil,
            simultaneous: narrowband ? simultaneous : nil,
            basicSignalToNoiseRatio: ro,
            simultaneousImpairment: simultaneousImpairment,
            delay: delay,
            equipment: equipment,
            rFactor: listeningR - delay.total,
            listeningRFactor: listeningR)
    }
}
