/// Finds how far one recording lags another by cross-correlation: the measured delay of a
/// call's audio (what the callee played against what the caller captured).
///
/// Two stages keep it fast on long recordings: the lag of the 1 ms energy envelopes over the
/// whole overlap (coarse, robust to codec and concealment changes of the waveform), then the
/// normalised cross-correlation of the samples themselves within ±3 ms of it, over the
/// loudest second of the reference.
enum AudioAlignment {
    /// The lag found, and how alike the two recordings are at that lag.
    struct Match: Equatable {
        /// How many samples `received` lags `sent` by.
        var lagSamples: Int
        /// The normalised cross-correlation of the samples at that lag (1: identical up to gain).
        var correlation: Double
    }

    /// The lag of `received` behind `sent` (same rate, mono), searched from 0 to `maximumLagSamples`;
    /// nil when either is silent or too short to compare.
    static func lag(of received: [Int16], behind sent: [Int16], sampleRate: Int, maximumLagSamples: Int) -> Match? {
        let block = max(1, sampleRate / 1000)
        let sentEnvelope = envelope(sent, block: block), receivedEnvelope = envelope(received, block: block)
        guard let coarse = bestLag(of: receivedEnvelope, behind: sentEnvelope, in: 0...(maximumLagSamples / block), window: 0..<sentEnvelope.count)
        else { return nil }
        // The loudest second of the reference, where the waveforms are best defined.
        let windowLength = min(sampleRate, sent.count)
        var loudest = 0, loudestEnergy = -1.0
        for start in stride(from: 0, through: sent.count - windowLength, by: max(1, windowLength / 4)) {
            let energy = sentEnvelope[(start / block)..<min(sentEnvelope.count, (start + windowLength) / block)].reduce(0, +)
            if energy > loudestEnergy { (loudest, loudestEnergy) = (start, energy) }
        }
        let margin = 3 * block
        let search = max(0, coarse.lag * block - margin)...max(0, coarse.lag * block + margin)
        guard let fine = bestLag(of: received.map(Double.init), behind: sent.map(Double.init), in: search, window: loudest..<(loudest + windowLength))
        else { return nil }
        return Match(lagSamples: fine.lag, correlation: fine.correlation)
    }

    /// Mean absolute value per `block` samples, with its mean removed.
    private static func envelope(_ samples: [Int16], block: Int) -> [Double] {
        let values = stride(from: 0, to: samples.count - block + 1, by: block).map { start in
            samples[start..<(start + block)].reduce(0.0) { $0 + abs(Double($1)) } / Double(block)
        }
        let mean = values.reduce(0, +) / Double(max(values.count, 1))
        return values.map { $0 - mean }
    }

    /// The lag in `lags` at which `received[i + lag]` best matches `sent[i]` for `i` in `window`.
    private static func bestLag(of received: [Double], behind sent: [Double], in lags: ClosedRange<Int>, window: Range<Int>) -> (lag: Int, correlation: Double)? {
        var best: (lag: Int, correlation: Double)?
        sent.withUnsafeBufferPointer { sent in
            received.withUnsafeBufferPointer { received in
                for lag in lags {
                    let start = max(window.lowerBound, 0), end = min(window.upperBound, sent.count, received.count - lag)
                    guard end - start > 0 else { continue }
                    var product = 0.0, sentEnergy = 0.0, receivedEnergy = 0.0
                    for index in start..<end {
                        let a = sent[index], b = received[index + lag]
                        product += a * b
                        sentEnergy += a * a
                        receivedEnergy += b * b
                    }
                    guard sentEnergy > 0, receivedEnergy > 0 else { continue }
                    let correlation = product / (sentEnergy * receivedEnergy).squareRoot()
                    if correlation > best?.correlation ?? -.infinity { best = (lag, correlation) }
                }
            }
        }
        return best
    }
}
