/// Every term of one E-model evaluation, as numbers (``terms``), as text (``description``) and
/// as `Codable` fields for JSON.
public struct EModelResult: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The inputs this result was computed from.
    public var parameters: EModelParameters
    /// The noise terms behind Ro; `nil` for the wideband and fullband variants, whose Ro is
    /// fixed.
    public var noise: NoiseTerms?
    /// The parts of Is; `nil` for the wideband and fullband variants, which take Is = 0.
    public var simultaneous: SimultaneousImpairmentTerms?
    /// Ro, the basic signal-to-noise ratio (equation 7-2, or 129 / 148 for wideband / fullband).
    public var basicSignalToNoiseRatio: Double
    /// Is, the simultaneous impairment factor (equation 7-8).
    public var simultaneousImpairment: Double
    /// Id and its parts (equation 7-18).
    public var delay: DelayImpairmentTerms
    /// Ie,eff and its inputs (equation 7-29).
    public var equipment: EquipmentImpairmentTerms
    /// R = Ro − Is − Id − Ie,eff + A (equation 7-1).
    public var rFactor: Double
    /// R without the delay impairment, Ro − Is − Ie,eff + A: the basis of the listening-quality
    /// MOS (RFC 3611 §4.7.5 defines MOS-LQ as excluding the effects of delay; leaving out all of
    /// Id, echo included, is this implementation's reading of that).
    public var listeningRFactor: Double

    /// Id, the delay impairment factor.
    public var delayImpairment: Double { delay.total }
    /// Ie,eff, the effective equipment impairment factor.
    public var effectiveEquipmentImpairment: Double { equipment.effectiveEquipmentImpairment }
    /// A, the advantage factor.
    public var advantageFactor: Double { parameters.advantageFactor }
    /// MOS-CQE, the conversational quality estimate of G.107 Annex B for ``rFactor``.
    public var conversationalMOS: Double {
        MeanOpinionScore.fromRFactor(rFactor, bandwidth: parameters.bandwidth)
    }
    /// The same conversion applied to ``listeningRFactor``: a listening-quality estimate.
    public var listeningMOS: Double {
        MeanOpinionScore.fromRFactor(listeningRFactor, bandwidth: parameters.bandwidth)
    }

    /// Every term in the order of equation 7-1, sub-terms indented under their term.
    public var terms: [EModelTerm] {
        var list = [EModelTerm]()
        let roSource = noise == nil ? parameters.bandwidth.recommendation + " §7.2" : "7-2"
        list.append(.init("Ro", key: "ro", "basic signal-to-noise ratio", basicSignalToNoiseRatio, equation: roSource))
        if let noise {
            list += [
                .init("No", key: "no", "total noise, dBm0p", noise.totalNoise, equation: "7-3", depth: 1),
                .init("Nos", key: "nos", "send room noise, dBm0p", noise.sendRoomNoise, equation: "7-4", depth: 2),
                .init("Nor", key: "nor", "receive room noise, dBm0p", noise.receiveRoomNoise, equation: "7-5", depth: 2),
                .init("Pre", key: "pre", "effective receive room noise, dB(A)", noise.effectiveReceiveRoomNoise, equation: "7-6", depth: 2),
                .init("Nfo", key: "nfo", "receive noise floor, dBm0p", noise.noiseFloor, equation: "7-7", depth: 2),
            ]
        }
        list.append(.init("Is", key: "is", "simultaneous impairment", simultaneousImpairment, equation: "7-8"))
        if let simultaneous {
            list += [
                .init("Iolr", key: "iolr", "loudness impairment", simultaneous.loudnessImpairment, equation: "7-9", depth: 1),
                .init("Xolr", key: "xolr", "noise-adjusted overall loudness", simultaneous.adjustedOverallLoudness, equation: "7-10", depth: 2),
                .init("Ist", key: "ist", "sidetone impairment", simultaneous.sidetoneImpairment, equation: "7-11", depth: 1),
                .init("STMRo", key: "stmro", "sidetone masking incl. echo", simultaneous.optimumSidetoneMaskingRating, equation: "7-12", depth: 2),
                .init("Iq", key: "iq", "quantizing impairment", simultaneous.quantizingImpairment, equation: "7-13", depth: 1),
                .init("Q", key: "q", "quantizing distortion, dB", simultaneous.quantizingDistortion, equation: "7-17", depth: 2),
            ]
        }
        list += [
            .init("Id", key: "id", "delay impairment", delay.total, equation: "7-18"),
            .init("Idte", key: "idte", "talker echo impairment", delay.talkerEchoImpairment, equation: "7-19", depth: 1),
            .init("TERV", key: "terv", "talker echo rating", delay.talkerEchoRating, equation: "7-22", depth: 2),
            .init("Idle", key: "idle", "listener echo impairment", delay.listenerEchoImpairment, equation: "7-25", depth: 1),
            .init("Rle", key: "rle", "listener echo rating", delay.listenerEchoRating, equation: "7-26", depth: 2),
            .init("Idd", key: "idd", "absolute delay impairment", delay.absoluteDelayImpairment, equation: "7-27", depth: 1),
            .init("Ie,eff", key: "ie_eff", "effective equipment impairment", equipment.effectiveEquipmentImpairment, equation: "7-29"),
            .init("A", key: "a", "advantage factor", advantageFactor, equation: "7-1"),
            .init("R", key: "r", "transmission rating factor", rFactor, equation: "7-1"),
            .init("MOS-CQE", key: "mos_cqe", "conversational quality estimate", conversationalMOS, equation: "B-4"),
            .init("R(LQ)", key: "r_lq", "rating without delay impairment", listeningRFactor, equation: "7-1"),
            .init("MOS(LQ)", key: "mos_lq", "listening quality estimate", listeningMOS, equation: "B-4"),
        ]
        return list
    }

    /// A readable report: the variant and delay class, then one line per term.
    public var description: String {
        var lines = [
            "E-model, \(parameters.bandwidth.recommendation), \(parameters.bandwidth)",
            "delay sensitivity \(parameters.delaySensitivity); Ta \(parameters.absoluteDelayMilliseconds.formatted(decimals: 1)) ms, "
                + "Ie \(parameters.equipmentImpairment.formatted(decimals: 1)), Bpl \(parameters.packetLossRobustness.formatted(decimals: 1)), "
                + "Ppl \(parameters.packetLossPercent.formatted(decimals: 2)) %, BurstR \(parameters.burstRatio.formatted(decimals: 2))",
        ]
        for term in terms {
            let label = String(repeating: "  ", count: term.depth) + term.symbol
            let value = term.value.formatted(decimals: term.key.hasPrefix("mos") ? 3 : 2)
            lines.append(
                label.padded(to: 10) + value.padded(to: 9, leading: true) + "  " + term.name.padded(to: 36)
                    + " eq. " + term.equation)
        }
        return lines.joined(separator: "\n")
    }
}

/// One named value of an E-model evaluation, for text and machine-readable renderings.
public struct EModelTerm: Sendable, Hashable, Codable {
    /// The Recommendation's symbol, such as `Idte`.
    public var symbol: String
    /// A snake_case key for JSON or CSV, such as `idte`.
    public var key: String
    /// What the term is, in words.
    public var name: String
    /// Its value.
    public var value: Double
    /// The equation of ITU-T G.107 (06/2015) that defines it, such as `7-19` or `B-4` (for the
    /// fixed Ro of the wider variants, the clause of their Recommendation).
    public var equation: String
    /// 0 for a term of equation 7-1 (and R, MOS), 1 for its parts, 2 for their inputs.
    public var depth: Int

    init(_ symbol: String, key: String, _ name: String, _ value: Double, equation: String, depth: Int = 0) {
        self.symbol = symbol
        self.key = key
        self.name = name
        self.value = value
        self.equation = equation
        self.depth = depth
    }
}

extension String {
    /// This string padded with spaces to `width` characters (on the left when `leading`).
    func padded(to width: Int, leading: Bool = false) -> String {
        let padding = String(repeating: " ", count: Swift.max(0, width - count))
        return leading ? padding + self : self + padding
    }
}
