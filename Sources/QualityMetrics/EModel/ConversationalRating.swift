/// The conversational rating R_conv of a call: what a listener heard, measured (MOS-LQO from
/// PESQ, ITU-T P.862.1 for narrowband or P.862.2 for wideband), turned into the listening
/// rating R_LQ by inverting G.107's MOS(R) (the method of ITU-T P.834), minus what the
/// conversation lost to delay, the delay impairment Id of G.107 at the mouth-to-ear delay Ta:
/// R_conv = R_LQ − Id(Ta).
///
/// Id is G.107's (06/2015) equation 7-18 with every term, for the default connection of
/// ``EModelParameters`` (TELR 65 dB, WEPL 110 dB) with the echo path delay T = Ta and the
/// round-trip delay Tr = 2 Ta, as G.107 assumes for a symmetric connection. A jitter buffer
/// is judged by it: its delay costs Id, its late loss and concealment cost MOS-LQO.
///
/// ```swift
/// let rating = try ConversationalRating(listeningMOS: 3.76, bandwidth: .narrowband, mouthToEarMilliseconds: 180)
/// rating.rFactor   // ≈ 71.4
/// ```
public struct ConversationalRating: Sendable, Hashable, Codable {
    /// The MOS-LQO the rating was made from, limited to 1…4.5 (the range of G.107's MOS).
    public let listeningMOS: Double
    /// The E-model variant whose R scale the rating is on: narrowband (MOS-LQO from P.862.1)
    /// or wideband (from P.862.2, R up to 129).
    public let bandwidth: SpeechBandwidth
    /// Ta, the mean mouth-to-ear delay in milliseconds (never below 0).
    public let mouthToEarMilliseconds: Double
    /// R_LQ, the listening rating on the variant's scale.
    public let listeningRFactor: Double
    /// Id at Ta (G.107 equation 7-18).
    public let delayImpairment: Double
    /// R_conv = R_LQ − Id.
    public var rFactor: Double { listeningRFactor - delayImpairment }

    /// Rates a conversation whose listener heard `listeningMOS` (MOS-LQO) `mouthToEarMilliseconds`
    /// after the talker spoke.
    ///
    /// - Throws: ``EModelError/invalidParameter(symbol:value:requirement:)`` when the delay is
    ///   not a finite number.
    public init(listeningMOS: Double, bandwidth: SpeechBandwidth, mouthToEarMilliseconds: Double) throws(EModelError) {
        guard listeningMOS.isFinite else {
            throw .invalidParameter(symbol: "MOS-LQO", value: listeningMOS, requirement: "a finite number")
        }
        self.listeningMOS = min(max(listeningMOS, 1), 4.5)
        self.bandwidth = bandwidth
        self.mouthToEarMilliseconds = max(mouthToEarMilliseconds, 0)
        listeningRFactor = Self.listeningRFactor(fromMOS: self.listeningMOS) * bandwidth.rScaleFactor
        delayImpairment = try Self.delayImpairment(mouthToEarMilliseconds: mouthToEarMilliseconds, bandwidth: bandwidth)
    }

    /// The narrowband R whose G.107 MOS (Annex B, equation B-4) is `mos`: the inverse of
    /// ``MeanOpinionScore/fromRFactor(_:)`` on 6.5…100, where it rises monotonically (P.834's
    /// method). A MOS at or below 1 gives 6.5, at or above 4.5 gives 100.
    public static func listeningRFactor(fromMOS mos: Double) -> Double {
        let lowest = 6.5, highest = 100.0
        guard mos > MeanOpinionScore.fromRFactor(lowest) else { return lowest }
        guard mos < MeanOpinionScore.fromRFactor(highest) else { return highest }
        // Bisection: 60 halvings of 93.5 leave less than 1e-13 of R.
        var low = lowest, high = highest
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if MeanOpinionScore.fromRFactor(middle) < mos { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// Id of G.107 (equation 7-18: Idte + Idle + Idd) for a one-way mouth-to-ear delay Ta in
    /// milliseconds, on the default connection with T = Ta and Tr = 2 Ta.
    public static func delayImpairment(
        mouthToEarMilliseconds: Double, bandwidth: SpeechBandwidth = .narrowband
    ) throws(EModelError) -> Double {
        guard mouthToEarMilliseconds.isFinite else {
            throw .invalidParameter(symbol: "Ta", value: mouthToEarMilliseconds, requirement: "a finite number")
        }
        let ta = max(mouthToEarMilliseconds, 0)
        var parameters = EModelParameters()
        parameters.bandwidth = bandwidth
        parameters.absoluteDelayMilliseconds = ta
        parameters.echoPathDelayMilliseconds = ta
        parameters.roundTripDelayMilliseconds = 2 * ta
        return try EModel.evaluate(parameters).delay.total
    }
}
