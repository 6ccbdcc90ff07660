import Foundation
import QualityMetrics
import CaptureAnalysis

/// `mediabench emodel`: the ITU-T G.107 E-model from its inputs, printing R, the MOS and every
/// term. One flag per model input comes from ``EModelInput/all``, so the command never lists
/// the inputs itself; values that make an equation undefined are refused by the model.
struct EModelCommand: Command {
    static let codec = Option(
        "codec", "NAME", .string,
        help: "Take Ie and Bpl from the G.113 table: an encoding (pcmu, pcma, g729, opus, …) or a table key.")
    static let noConcealment = Flag("no-plc", help: "With --codec pcmu/pcma: the receiver does not conceal losses (Bpl 4.3).")
    static let delayClass = Option(
        "delay-class", "CLASS", .choice(DelaySensitivity.allStandard.map(\.name)),
        help: "Delay-sensitivity class that sets mT and sT (default: default).")
    static let bandwidth = Option(
        "bandwidth", "BAND", .choice(["narrowband", "wideband", "fullband"]),
        help: "E-model variant: G.107, G.107.1 or G.107.2 (default: narrowband, or the codec's).")
    static let format = Option.dataFormat

    /// One option per E-model input, named by its flag (`--ta`, `--ppl`, `--burstr`, …).
    static let inputs: [(input: EModelInput, option: Option<Double>)] = EModelInput.all.map { input in
        let option = Option(
            input.flag, "VALUE", .number(in: -1_000_000...1_000_000),
            help: "\(input.symbol), \(input.summary) (default: \(input.defaultValue.formatted()))")
        return (input, option)
    }

    let name = "emodel"
    let summary = "Compute the ITU-T G.107 E-model rating R, MOS and each of its terms."
    let discussion = """
        Every input defaults to the Recommendation's Table 3 value; with all defaults R is 93.2.
        --codec sets Ie and Bpl (and the bandwidth) first; explicit --ie/--bpl override them.
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.codec, Self.noConcealment, Self.delayClass, Self.bandwidth] + Self.inputs.map(\.option) + [Self.format]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var parameters = EModelParameters()
        if let name = arguments[Self.codec] {
            let table = CodecImpairmentTable.standard
            guard let codec = table.entry(forEncodingName: name, concealment: !arguments[Self.noConcealment]) ?? table[name.lowercased()]
            else {
                let known = table.sortedEntries.map(\.key).joined(separator: ", ")
                throw UsageError("--codec: unknown codec '\(name)' (known: \(known))")
            }
            parameters = try parameters.applying(codec)
        }
        if let className = arguments[Self.delayClass], let sensitivity = DelaySensitivity.standard(named: className) {
            parameters.delaySensitivity = sensitivity
        }
        if let band = arguments[Self.bandwidth] {
            parameters.bandwidth = band == "wideband" ? .wideband : band == "fullband" ? .fullband : .narrowband
        }
        for (input, option) in Self.inputs {
            if let value = arguments[option] {
                try parameters.set(input.symbol, to: value)
            }
        }
        let result = try EModel.evaluate(parameters)
        switch arguments[Self.format] ?? .text {
        case .text:
            console.write(result.description + "\n")
        case .json:
            console.write(try Self.json(result) + "\n")
        }
        return 0
    }

    /// `{"r_factor", "mos_cqe", "terms": {key: value}, "inputs": {symbol: value}, …}`.
    private static func json(_ result: EModelResult) throws -> String {
        var terms: [String: Double] = [:]
        for term in result.terms { terms[term.key] = term.value }
        var inputs: [String: Double] = [:]
        for input in EModelInput.all { inputs[input.symbol] = result.parameters.value(of: input.symbol) }
        let object: [String: Any] = [
            "r_factor": result.rFactor,
            "mos_cqe": result.conversationalMOS,
            "r_factor_listening": result.listeningRFactor,
            "mos_lq": result.listeningMOS,
            "bandwidth": "\(result.parameters.bandwidth)",
            "delay_sensitivity": result.parameters.delaySensitivity.name,
            "terms": terms,
            "inputs": inputs,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }
}
