import QualityMetrics
import PlayoutLab

/// What the E-model is given for one rating: the loss the listener had and the mouth-to-ear
/// delay's parts.
struct RatingInputs {
    /// Ppl, in percent.
    var lossPercent: Double
    /// BurstR from the loss pattern, `nil` for random loss.
    var burstRatio: Double?
    /// The path's one-way network delay (half the path round trip, or given).
    var networkOneWayMilliseconds: Double
    /// The mean playout (buffering) delay.
    var playoutDelayMilliseconds: Double
    /// The audio in one packet.
    var packetisationMilliseconds: Double
    /// The codec's algorithmic delay beyond the packet (look-ahead).
    var codecDelayMilliseconds: Double
}

/// Rates a stream, or one interval of it, with the E-model (G.107, or G.107.1 for wideband
/// codecs): the codec's Ie and Bpl from a G.113 table, or for Opus the values derived here by
/// the P.834.1 method (`CodecImpairmentTable.ratingEntry`); Ppl and BurstR from the losses; Ta the
/// mouth-to-ear delay (network one way + playout + packetisation + codec), T = Ta, Tr = 2·Ta.
struct QualityEstimator {
    let table: CodecImpairmentTable

    /// The codec's impairment entry, `nil` when neither the table nor the Opus derivation has
    /// values (video, events, unknown dynamic types).
    func impairment(encodingName: String?, bitsPerSecond: Double?) -> CodecImpairment? {
        guard let encodingName else { return nil }
        return table.ratingEntry(forEncodingName: encodingName, bitsPerSecond: bitsPerSecond)
    }

    /// The codec's algorithmic delay beyond its frame: Opus 6.5 ms (RFC 6716 §2: 26.5 ms in all
    /// with 20 ms frames); 0 for G.711 and for codecs whose delay the analyzer does not know.
    static func codecDelayMilliseconds(encodingName: String?) -> Double {
        encodingName?.lowercased() == "opus" ? 6.5 : 0
    }

    /// The rating of `codec` with `inputs`, `nil` without a codec or when the model refuses them.
    func estimate(codec: CodecImpairment?, _ inputs: RatingInputs) -> QualityEstimate? {
        guard let codec else { return nil }
        var parameters = EModelParameters()
        parameters.packetLossPercent = min(max(inputs.lossPercent, 0), 100)
        parameters.burstRatio = max(inputs.burstRatio ?? 1, 1)
        let delay =
            max(inputs.networkOneWayMilliseconds, 0) + max(inputs.playoutDelayMilliseconds, 0)
            + max(inputs.packetisationMilliseconds, 0) + max(inputs.codecDelayMilliseconds, 0)
        parameters.absoluteDelayMilliseconds = delay
        parameters.roundTripDelayMilliseconds = 2 * delay
        parameters.echoPathDelayMilliseconds = delay
        guard let rated = try? parameters.applying(codec), let result = try? EModel.evaluate(rated) else {
            return nil
        }
        return QualityEstimate(
            codecKey: codec.key, bandwidth: codec.bandwidth.rawValue,
            equipmentImpairment: rated.equipmentImpairment, packetLossRobustness: rated.packetLossRobustness,
            impairmentSource: codec.source, packetLossPercent: rated.packetLossPercent, burstRatio: rated.burstRatio,
            oneWayDelayMilliseconds: delay, networkOneWayMilliseconds: inputs.networkOneWayMilliseconds,
            playoutDelayMilliseconds: inputs.playoutDelayMilliseconds,
            packetisationMilliseconds: inputs.packetisationMilliseconds, codecDelayMilliseconds: inputs.codecDelayMilliseconds,
            rFactor: result.rFactor, meanOpinionScore: result.conversationalMOS)
    }
}
