/// Every input of the E-model, each defaulting to its value in ITU-T G.107 (06/2015) Table 3.
///
/// With every default, ``EModel/evaluate(_:)`` gives R = 93.2, the figure G.107 §7.7 states.
/// Each property names the Recommendation's symbol; levels are in dB unless the name says
/// otherwise, delays in milliseconds.
///
/// To rate a codec, start from the defaults and apply a ``CodecImpairment`` (which sets
/// ``equipmentImpairment`` and ``packetLossRobustness``), then set the measured
/// ``packetLossPercent``, ``burstRatio`` and ``absoluteDelayMilliseconds``.
public struct EModelParameters: Sendable, Hashable, Codable {
    /// SLR, send loudness rating. Default 8 dB.
    public var sendLoudnessRating: Double = 8
    /// RLR, receive loudness rating. Default 2 dB.
    public var receiveLoudnessRating: Double = 2
    /// STMR, sidetone masking rating. Default 15 dB.
    public var sidetoneMaskingRating: Double = 15
    /// LSTR, listener sidetone rating; `nil` (the default) means STMR + Dr, as Table 3 defines
    /// it (18 dB with the defaults).
    public var listenerSidetoneRating: Double?
    /// Ds, the D-value of the telephone on the send side. Default 3.
    public var sendSideDValue: Double = 3
    /// Dr, the D-value of the telephone on the receive side. Default 3.
    public var receiveSideDValue: Double = 3
    /// TELR, talker echo loudness rating. Default 65 dB.
    public var talkerEchoLoudnessRating: Double = 65
    /// WEPL, weighted echo path loss. Default 110 dB.
    public var weightedEchoPathLoss: Double = 110
    /// T, mean one-way delay of the echo path. Default 0 ms.
    public var echoPathDelayMilliseconds: Double = 0
    /// Tr, round-trip delay in a 4-wire loop (listener echo). Default 0 ms.
    public var roundTripDelayMilliseconds: Double = 0
    /// Ta, absolute one-way delay in echo-free connections (mouth to ear). Default 0 ms.
    public var absoluteDelayMilliseconds: Double = 0
    /// qdu, number of quantizing distortion units. Default 1.
    public var quantizingDistortionUnits: Double = 1
    /// Ie, equipment impairment factor of the codec at zero packet loss. Default 0.
    public var equipmentImpairment: Double = 0
    /// Bpl, packet-loss robustness factor of the codec. Default 4.3 (G.711 without packet-loss
    /// concealment).
    public var packetLossRobustness: Double = 4.3
    /// Ppl, packet-loss probability in percent (0–100). Default 0.
    public var packetLossPercent: Double = 0
    /// BurstR, the burst ratio: 1 for random loss, above 1 for bursty loss (see ``BurstRatio``).
    /// Default 1.
    public var burstRatio: Double = 1
    /// Nc, circuit noise referred to the 0 dBr point. Default −70 dBm0p.
    public var circuitNoiseDBm0p: Double = -70
    /// Nfor, noise floor at the receive side. Default −64 dBmp.
    public var receiveNoiseFloorDBmp: Double = -64
    /// Ps, room noise at the send side. Default 35 dB(A).
    public var sendRoomNoiseDBA: Double = 35
    /// Pr, room noise at the receive side. Default 35 dB(A).
    public var receiveRoomNoiseDBA: Double = 35
    /// A, the advantage factor (G.107 §7.6). Default 0.
    public var advantageFactor: Double = 0
    /// The delay-sensitivity class that sets mT and sT of Idd. Default ``DelaySensitivity/default``.
    public var delaySensitivity: DelaySensitivity = .default
    /// The E-model variant. Default ``SpeechBandwidth/narrowband``.
    public var bandwidth: SpeechBandwidth = .narrowband

    /// Every parameter at its G.107 Table 3 default.
    public init() {}

    /// LSTR as used by the model: ``listenerSidetoneRating``, or STMR + Dr when it is `nil`.
    public var effectiveListenerSidetoneRating: Double {
        listenerSidetoneRating ?? sidetoneMaskingRating + receiveSideDValue
    }

    /// OLR = SLR + RLR, the overall loudness rating.
    public var overallLoudnessRating: Double { sendLoudnessRating + receiveLoudnessRating }

    /// These parameters with the codec's Ie and Bpl (and its bandwidth).
    ///
    /// - Throws: ``EModelError/valueNotTraceable(codec:symbol:)`` when the table entry has no
    ///   Ie, or has no Bpl while ``packetLossPercent`` is above zero.
    public func applying(_ codec: CodecImpairment) throws(EModelError) -> EModelParameters {
        guard let ie = codec.equipmentImpairment else {
            throw .valueNotTraceable(codec: codec.name, symbol: "Ie")
        }
        var result = self
        result.equipmentImpairment = ie
        result.bandwidth = codec.bandwidth
        if let bpl = codec.packetLossRobustness {
            result.packetLossRobustness = bpl
        } else if packetLossPercent > 0 {
            throw .valueNotTraceable(codec: codec.name, symbol: "Bpl")
        }
        return result
    }

    /// Checks that the model's equations are defined for these values.
    ///
    /// G.107 Table 3 also gives "permitted ranges" for planning; values outside them are
    /// accepted (the model extrapolates), but values that make an equation undefined are not.
    public func validate() throws(EModelError) {
        let named: [(String, Double)] = [
            ("SLR", sendLoudnessRating), ("RLR", receiveLoudnessRating),
            ("STMR", sidetoneMaskingRating), ("LSTR", effectiveListenerSidetoneRating),
            ("Ds", sendSideDValue), ("Dr", receiveSideDValue), ("TELR", talkerEchoLoudnessRating),
            ("WEPL", weightedEchoPathLoss), ("T", echoPathDelayMilliseconds),
            ("Tr", roundTripDelayMilliseconds), ("Ta", absoluteDelayMilliseconds),
            ("qdu", quantizingDistortionUnits), ("Ie", equipmentImpairment),
            ("Bpl", packetLossRobustness), ("Ppl", packetLossPercent), ("BurstR", burstRatio),
            ("Nc", circuitNoiseDBm0p), ("Nfor", receiveNoiseFloorDBmp), ("Ps", sendRoomNoiseDBA),
            ("Pr", receiveRoomNoiseDBA), ("A", advantageFactor),
            ("mT", delaySensitivity.minimumPerceivableDelayMilliseconds),
            ("sT", delaySensitivity.sensitivity),
        ]
        for (symbol, value) in named where !value.isFinite {
            throw .invalidParameter(symbol: symbol, value: value, requirement: "must be a finite number")
        }
        try Self.require("qdu", quantizingDistortionUnits, quantizingDistortionUnits > 0, "must be above 0")
        try Self.require("T", echoPathDelayMilliseconds, echoPathDelayMilliseconds >= 0, "must be 0 or more")
        try Self.require("Tr", roundTripDelayMilliseconds, roundTripDelayMilliseconds >= 0, "must be 0 or more")
        try Self.require("Ta", absoluteDelayMilliseconds, absoluteDelayMilliseconds >= 0, "must be 0 or more")
        try Self.require("Ppl", packetLossPercent, (0...100).contains(packetLossPercent), "must be between 0 and 100")
        try Self.require("Bpl", packetLossRobustness, packetLossRobustness > 0, "must be above 0")
        try Self.require("BurstR", burstRatio, burstRatio > 0, "must be above 0")
        try Self.require("WEPL", weightedEchoPathLoss, weightedEchoPathLoss > -7, "must be above -7 dB")
        try Self.require(
            "mT", delaySensitivity.minimumPerceivableDelayMilliseconds,
            delaySensitivity.minimumPerceivableDelayMilliseconds > 0, "must be above 0")
        try Self.require("sT", delaySensitivity.sensitivity, delaySensitivity.sensitivity > 0, "must be above 0")
    }

    private static func require(
        _ symbol: String, _ value: Double, _ condition: Bool, _ requirement: String
    ) throws(EModelError) {
        guard condition else {
            throw .invalidParameter(symbol: symbol, value: value, requirement: requirement)
        }
    }
}

/// Why the E-model could not be evaluated.
public enum EModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter makes an equation of the model undefined.
    case invalidParameter(symbol: String, value: Double, requirement: String)
    /// A codec table entry lacks a value the calculation needs, because no ITU-T text for it
    /// could be traced; supply the value yourself.
    case valueNotTraceable(codec: String, symbol: String)

    /// What was wrong, naming the parameter.
    public var description: String {
        switch self {
        case let .invalidParameter(symbol, value, requirement):
            "E-model parameter \(symbol) = \(value) \(requirement)"
        case let .valueNotTraceable(codec, symbol):
            "no ITU-T value of \(symbol) is known for codec \(codec); give it explicitly"
        }
    }
}
