#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The noise terms behind the narrowband basic signal-to-noise ratio Ro (ITU-T G.107 (06/2015)
/// §7.2, equations 7-2 to 7-7).
public struct NoiseTerms: Sendable, Hashable, Codable {
    /// Nos, the room noise at the send side referred to the 0 dBr point, dBm0p (equation 7-4).
    public var sendRoomNoise: Double
    /// Pre, the receive-side room noise raised by the listener sidetone, dB(A) (equation 7-6).
    public var effectiveReceiveRoomNoise: Double
    /// Nor, the receive-side room noise referred to the 0 dBr point, dBm0p (equation 7-5).
    public var receiveRoomNoise: Double
    /// Nfo, the receive-side noise floor referred to the 0 dBr point, dBm0p (equation 7-7).
    public var noiseFloor: Double
    /// No, the power sum of Nc, Nos, Nor and Nfo, dBm0p (equation 7-3).
    public var totalNoise: Double
    /// Ro = 15 − 1.5 (SLR + No) (equation 7-2).
    public var basicSignalToNoiseRatio: Double

    init(_ p: EModelParameters) {
        let slr = p.sendLoudnessRating
        let rlr = p.receiveLoudnessRating
        noiseFloor = p.receiveNoiseFloorDBmp + rlr
        effectiveReceiveRoomNoise =
            p.receiveRoomNoiseDBA
            + 10 * log10(1 + pow(10, (10 - p.effectiveListenerSidetoneRating) / 10))
        let pre = effectiveReceiveRoomNoise
        receiveRoomNoise = rlr - 121 + pre + 0.008 * (pre - 35) * (pre - 35)
        let sendExcess = p.sendRoomNoiseDBA - p.overallLoudnessRating - p.sendSideDValue - 14
        sendRoomNoise = p.sendRoomNoiseDBA - slr - p.sendSideDValue - 100 + 0.004 * sendExcess * sendExcess
        totalNoise =
            10
            * log10(
                pow(10, p.circuitNoiseDBm0p / 10) + pow(10, sendRoomNoise / 10)
                    + pow(10, receiveRoomNoise / 10) + pow(10, noiseFloor / 10))
        basicSignalToNoiseRatio = 15 - 1.5 * (slr + totalNoise)
    }
}
