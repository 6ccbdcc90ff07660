/// Wideband E-model (G.107.1) impairments of Opus per bitrate band, for the live monitor's and
/// the analyzer's rating (through ``CodecImpairmentTable/ratingEntry(forEncodingName:bitsPerSecond:concealment:)``).
///
/// No published Ie,wb or Bpl,wb for Opus could be traced (G.113 tabulates none), so every value
/// here was derived in this repository by the instrumental method of ITU-T P.834.1:
/// `scripts/derive-wideband-iewb.py` (WB-PESQ over an espeak-ng corpus, libopus 1.3.1 at 16 kHz,
/// 20 ms, random loss 0–15 %, Bpl,wb fitted), with its output in `docs/opus-iewb.json` and the
/// method in `docs/opus-iewb.md`. Each entry's ``CodecImpairment/source`` says so.
enum OpusWidebandImpairment {
    /// One derived row: the bitrate measured, the band it stands for, and the values.
    private struct Band {
        let measuredBitsPerSecond: Int
        let upperBitsPerSecond: Int
        let equipmentImpairment: Double
        let packetLossRobustness: Double
        let fitRootMeanSquare: Double
    }

    /// `docs/opus-iewb.json`, rounded as the script wrote it.
    private static let bands: [Band] = [
        Band(measuredBitsPerSecond: 12_000, upperBitsPerSecond: 14_000, equipmentImpairment: 53.9, packetLossRobustness: 9.0, fitRootMeanSquare: 0.59),
        Band(measuredBitsPerSecond: 16_000, upperBitsPerSecond: 20_000, equipmentImpairment: 39.55, packetLossRobustness: 7.5, fitRootMeanSquare: 0.78),
        Band(measuredBitsPerSecond: 24_000, upperBitsPerSecond: 28_000, equipmentImpairment: 21.62, packetLossRobustness: 5.8, fitRootMeanSquare: 1.16),
        Band(measuredBitsPerSecond: 32_000, upperBitsPerSecond: 40_000, equipmentImpairment: 12.19, packetLossRobustness: 5.1, fitRootMeanSquare: 1.89),
        Band(measuredBitsPerSecond: 48_000, upperBitsPerSecond: .max, equipmentImpairment: 0, packetLossRobustness: 4.3, fitRootMeanSquare: 3.18),
    ]

    /// The entry for an Opus stream of `bitsPerSecond` (payload bits over media time), the band
    /// whose range holds it.
    static func entry(bitsPerSecond: Double) -> CodecImpairment {
        let band = bands.first { bitsPerSecond < Double($0.upperBitsPerSecond) } ?? bands[bands.count - 1]
        let kilobits = band.measuredBitsPerSecond / 1000
        let saturated =
            band.equipmentImpairment == 0
            ? "; its MOS-LQO reaches the 4.5 ceiling of G.107.1's MOS(R), so Ie,wb = 0 is a floor" : ""
        return CodecImpairment(
            key: "opus-wb-\(kilobits)k", name: "Opus, wideband, \(kilobits) kbit/s band", bandwidth: .wideband,
            equipmentImpairment: band.equipmentImpairment, packetLossRobustness: band.packetLossRobustness,
            packetDurationMilliseconds: 20,
            source: "derived here by the ITU-T P.834.1 method (WB-PESQ P.862.2 over an espeak-ng corpus, "
                + "libopus 1.3.1 at \(kilobits) kbit/s, 20 ms, random loss 0-15 %, Bpl,wb fit RMS "
                + "\(band.fitRootMeanSquare)); scripts/derive-wideband-iewb.py, docs/opus-iewb.md\(saturated)")
    }
}
