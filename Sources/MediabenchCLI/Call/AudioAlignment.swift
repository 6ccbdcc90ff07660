/// Finds how far one recording lags another by cross-correlation: the measured delay of a
/// call's audio (what the callee played against what the caller captured).
///
/// An adaptive jitter buffer changes the delay during a call (it stretches and shrinks the
/// audio), so the lag is found per window of the reference: first the lag of the 1 ms energy
/// envelopes (coarse, robust to what codecs and concealment do to the waveform), then the
/// normalised cross-correlation of the samples within ±2 ms of it, over the loudest quarter
/// second of the window. Windows that are mostly pause are skipped.
enum AudioAlignment {
    /// The lag found for one window of the reference.
    struct Match: Equatable {
        /// Where the window starts in the reference, in samples.
        var sentStart: Int
        /// How many samples the received audio lags the reference by there.
        var lagSamples: Int
        /// The normalised cross-correlation of the samples at that lag (1: identical up to gain).
        var correlation: Double
    }

    /// The lags of `received` behind `sent` (same rate, mono), searched from 0 to
    /// `maximumLagSamples`, one per `windowSamples` of `sent` that carries sound.
    static func lags(of received: [Int16], behind sent: [Int16], sampleRate: Int, maximumLagSamples: Int, windowSamples: Int) -> [Match] {
        let block = max(1, sampleRate / 1000)
        let sentEnvelope = envelope(sent, block: block), receivedEnvelope = envelope(received, block: block)
        let windowBlocks = max(1, windowSamples / block)
        let overallEnergy = sentEnvelope.reduce(0) { $0 + $1 * $1 } / Double(max(sentEnvelope.count, 1))
        var matches: [Match] = []
        for windowStart in stride(from: 0, through: sentEnvelope.count - windowBlocks, by: windowBlocks) {
            let window = windowStart..<(windowStart + windowBlocks)
            let energy = sentEnvelope[window].reduce(0) { $0 + $1 * $1 } / Double(windowBlocks)
            guard energy > overallEnergy / 4,
                let coarse = bestLag(of: receivedEnvelope, behind: sentEnvelope, in: 0...(maximumLagSamples / block), window: window, value: { $0 })
            else { continue }
            let loudest = loudestSpan(of: sentEnvelope, in: window, blocks: min(250, windowBlocks))
            let search = max(0, (coarse.lag - 2) * block)...((coarse.lag + 2) * block)
            let loudestSamples = (loudest.lowerBound * block)..<(loudest.upperBound * block)
            guard let fine = bestLag(of: received, behind: sent, in: search, window: loudestSamples, value: { Double($0) }) else { continue }
            matches.append(Match(sentStart: windowStart * block, lagSamples: fine.lag, correlation: fine.correlation))
        }
        return matches
    }

    /// Mean absolute value per `block` samples.
    private static func envelope(_ samples: [Int16], block: Int) -> [Double] {
        stride(from: 0, to: samples.count - block + 1, by: block).map { start in
            samples[start..<(start + block)].reduce(0.0) { $0 + abs(Double($1)) } / Double(block)
        }
    }

    /// The `blocks` consecutive envelope blocks of `window` with the most energy.
    private static func loudestSpan(of envelope: [Double], in window: Range<Int>, blocks: Int) -> Range<Int> {
        var best = window.lowerBound, bestEnergy = -1.0
        for start in stride(from: window.lowerBound, through: window.upperBound - blocks, by: max(1, blocks / 5)) {
            let energy = envelope[start..<(start + blocks)].reduce(0) { $0 + $1 * $1 }
            if energy > bestEnergy { (best, bestEnergy) = (start, energy) }
        }
        return best..<(best + blocks)
    }

    /// The lag in `lags` at which `received[i + lag]` best matches `sent[i]` for `i` in `window`
    /// (means removed over the window, so a louder or quieter copy matches as well). `value`
    /// reads an element as a number: the samples are not copied (an hour of 48 kHz audio as
    /// `Double` would take 1.4 GB).
    private static func bestLag<Sample>(
        of received: [Sample], behind sent: [Sample], in lags: ClosedRange<Int>, window: Range<Int>, value: (Sample) -> Double
    ) -> (lag: Int, correlation: Double)? {
        var best: (lag: Int, correlation: Double)?
        sent.withUnsafeBufferPointer { sent in
            received.withUnsafeBufferPointer { received in
                for lag in lags {
                    let start = max(window.lowerBound, 0), end = min(window.upperBound, sent.count, received.count - lag)
                    guard end - start > 1 else { continue }
                    let count = Double(end - start)
                    var sumA = 0.0, sumB = 0.0, product = 0.0, energyA = 0.0, energyB = 0.0
                    for index in start..<end {
                        let a = value(sent[index]), b = value(received[index + lag])
                        sumA += a
                        sumB += b
                        product += a * b
                        energyA += a * a
                        energyB += b * b
                    }
                    let covariance = product - sumA * sumB / count
                    let varianceA = energyA - sumA * sumA / count, varianceB = energyB - sumB * sumB / count
                    guard varianceA > 0, varianceB > 0 else { continue }
                    let correlation = covariance / (varianceA * varianceB).squareRoot()
                    if correlation > best?.correlation ?? -.infinity { best = (lag, correlation) }
                }
            }
        }
        return best
    }
}
