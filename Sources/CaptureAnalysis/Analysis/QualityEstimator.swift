import QualityMetrics
import PlayoutLab
/// Rates a stream, or one interval of it, with the E-model: the codec's Ie and Bpl from a
/// G.113 table, Ppl and BurstR from the observed losses, and a one-way delay Ta.
///
/// Ta is estimated as half the RTCP round trip (0 when the capture has none) plus a jitter
/// buffer holding twice the interarrival jitter, the usual sizing of an adaptive buffer.
/// Codec and packetisation delay are not added: the capture cannot tell them.
struct QualityEstimator {
    let table: CodecImpairmentTable

    /// The rating of `encodingName` at the given loss, burstiness, round trip and jitter, or
    /// `nil` when the table has no Ie/Bpl for the codec (video, events, unknown dynamic types).
    func estimate(
        encodingName: String?, lossPercent: Double, burstRatio: Double?,
        roundTripMilliseconds: Double?, jitterMilliseconds: Double?
    ) -> QualityEstimate? {
        guard let encodingName, let codec = table.entry(forEncodingName: encodingName) else { return nil }
        var parameters = EModelParameters()
        parameters.packetLossPercent = min(max(lossPercent, 0), 100)
        parameters.burstRatio = max(burstRatio ?? 1, 1)
        let delay = (roundTripMilliseconds ?? 0) / 2 + 2 * (jitterMilliseconds ?? 0)
        parameters.absoluteDelayMilliseconds = delay
        parameters.roundTripDelayMilliseconds = 2 * delay
        parameters.echoPathDelayMilliseconds = delay
        guard let rated = try? parameters.applying(codec), let result = try? EModel.evaluate(rated) else {
            return nil
        }
        return QualityEstimate(
            codecKey: codec.key, bandwidth: codec.bandwidth.rawValue,
            packetLossPercent: rated.packetLossPercent, burstRatio: rated.burstRatio,
            oneWayDelayMilliseconds: delay, rFactor: result.rFactor, meanOpinionScore: result.conversationalMOS)
    }
}
