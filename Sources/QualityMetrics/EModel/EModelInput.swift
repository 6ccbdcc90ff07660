/// One numeric input of ``EModelParameters``, addressable by its G.107 symbol or by a
/// command-line flag name, so that a front end (such as `mediabench emodel`) can offer a flag
/// for every input without listing them itself.
public struct EModelInput: Sendable, Hashable {
    /// The Recommendation's symbol, such as `SLR` or `Ta`.
    public let symbol: String
    /// A lower-case flag name, such as `slr` or `ta`.
    public let flag: String
    /// What it is and its unit, such as `send loudness rating, dB`.
    public let summary: String
    /// Its G.107 (06/2015) Table 3 default.
    public let defaultValue: Double

    /// The inputs in the order of G.107 Table 3 (plus mT and sT of the delay-sensitivity
    /// class). LSTR's default is shown as STMR + Dr.
    public static let all: [EModelInput] = EModelParameters.fields.map {
        EModelInput(
            symbol: $0.symbol, flag: $0.symbol.lowercased(), summary: $0.summary,
            defaultValue: EModelParameters()[keyPath: $0.keyPath])
    }

    /// The input with this symbol or flag name (case-insensitive).
    public static func named(_ name: String) -> EModelInput? {
        let lowered = name.lowercased()
        return all.first { $0.flag == lowered }
    }
}

extension EModelParameters {
    /// The value of the input with this symbol or flag name, or `nil` for an unknown name.
    public func value(of name: String) -> Double? {
        Self.field(named: name).map { self[keyPath: $0.keyPath] }
    }

    /// Sets the input with this symbol or flag name (for example `"Ta"` or `"ppl"`). Setting
    /// mT or sT renames the delay-sensitivity class to the standard class it now matches, or
    /// to `custom`.
    ///
    /// - Throws: ``EModelError/invalidParameter(symbol:value:requirement:)`` for an unknown name.
    public mutating func set(_ name: String, to value: Double) throws(EModelError) {
        guard let field = Self.field(named: name) else {
            throw .invalidParameter(symbol: name, value: value, requirement: "is not an E-model input")
        }
        self[keyPath: field.keyPath] = value
        if field.symbol == "mT" || field.symbol == "sT" {
            let (mT, sT) = (delaySensitivity.minimumPerceivableDelayMilliseconds, delaySensitivity.sensitivity)
            delaySensitivity.name =
                DelaySensitivity.allStandard.first {
                    $0.minimumPerceivableDelayMilliseconds == mT && $0.sensitivity == sT
                }?.name ?? "custom"
        }
    }

    fileprivate struct Field {
        let symbol: String
        let summary: String
        let keyPath: WritableKeyPath<EModelParameters, Double>
    }

    private static func field(named name: String) -> Field? {
        let lowered = name.lowercased()
        return fields.first { $0.symbol.lowercased() == lowered }
    }

    fileprivate static var fields: [Field] {
        [
            Field(symbol: "SLR", summary: "send loudness rating, dB", keyPath: \.sendLoudnessRating),
            Field(symbol: "RLR", summary: "receive loudness rating, dB", keyPath: \.receiveLoudnessRating),
            Field(symbol: "STMR", summary: "sidetone masking rating, dB", keyPath: \.sidetoneMaskingRating),
            Field(symbol: "LSTR", summary: "listener sidetone rating, dB (default STMR + Dr)", keyPath: \.lstr),
            Field(symbol: "Ds", summary: "D-value of the telephone, send side", keyPath: \.sendSideDValue),
            Field(symbol: "Dr", summary: "D-value of the telephone, receive side", keyPath: \.receiveSideDValue),
            Field(symbol: "TELR", summary: "talker echo loudness rating, dB", keyPath: \.talkerEchoLoudnessRating),
            Field(symbol: "WEPL", summary: "weighted echo path loss, dB", keyPath: \.weightedEchoPathLoss),
            Field(symbol: "T", summary: "mean one-way delay of the echo path, ms", keyPath: \.echoPathDelayMilliseconds),
            Field(symbol: "Tr", summary: "round-trip delay in a 4-wire loop, ms", keyPath: \.roundTripDelayMilliseconds),
            Field(symbol: "Ta", summary: "absolute one-way delay, ms", keyPath: \.absoluteDelayMilliseconds),
            Field(symbol: "qdu", summary: "quantizing distortion units", keyPath: \.quantizingDistortionUnits),
            Field(symbol: "Ie", summary: "equipment impairment factor", keyPath: \.equipmentImpairment),
            Field(symbol: "Bpl", summary: "packet-loss robustness factor", keyPath: \.packetLossRobustness),
            Field(symbol: "Ppl", summary: "packet-loss probability, %", keyPath: \.packetLossPercent),
            Field(symbol: "BurstR", summary: "burst ratio", keyPath: \.burstRatio),
            Field(symbol: "Nc", summary: "circuit noise, dBm0p", keyPath: \.circuitNoiseDBm0p),
            Field(symbol: "Nfor", summary: "noise floor at the receive side, dBmp", keyPath: \.receiveNoiseFloorDBmp),
            Field(symbol: "Ps", summary: "room noise at the send side, dB(A)", keyPath: \.sendRoomNoiseDBA),
            Field(symbol: "Pr", summary: "room noise at the receive side, dB(A)", keyPath: \.receiveRoomNoiseDBA),
            Field(symbol: "A", summary: "advantage factor", keyPath: \.advantageFactor),
            Field(symbol: "mT", summary: "minimum perceivable delay, ms", keyPath: \.delaySensitivity.minimumPerceivableDelayMilliseconds),
            Field(symbol: "sT", summary: "delay sensitivity", keyPath: \.delaySensitivity.sensitivity),
        ]
    }

    /// LSTR as a plain number for ``set(_:to:)``: reading gives the effective value, writing
    /// overrides it.
    private var lstr: Double {
        get { effectiveListenerSidetoneRating }
        set { listenerSidetoneRating = newValue }
    }
}
