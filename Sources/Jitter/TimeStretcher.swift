/// Time-stretches decoded PCM by removing or repeating one whole pitch period where the
/// signal repeats itself (WSOLA-style), cross-fading across the seam so there is no click.
///
/// The pitch period is the lag of highest normalized cross-correlation between a segment and
/// the one following it, searched in 2.5–15 ms on a copy decimated to about 4 kHz and refined
/// at the full rate. A period is only removed or repeated when that correlation exceeds
/// ``correlationThreshold`` or the signal is quiet (stretching silence is inaudible; quiet
/// audio is stretched by the longest step allowed). The caller may say the audio is a pause of
/// the speech (its voice activity decision): a pause is stretched by a whole period where it
/// repeats itself (a hum, or speech the decision missed), and otherwise, whatever its level, by
/// the longest step, since background noise has no pitch to keep either.
struct TimeStretcher: ~Copyable {
    let sampleRate: Int
    let channels: Int
    let minimumPeriod: Int
    let maximumPeriod: Int
    private let decimation: Int
    /// The first channel of the searched audio, and its decimated copy (scratch).
    private let firstChannel: UnsafeMutableBufferPointer<Int32>
    private let decimated: UnsafeMutableBufferPointer<Int32>

    /// Below this mean magnitude the signal counts as quiet (about −50 dBFS).
    static let quietLevel = 100.0
    /// The normalized correlation a period must reach to be removed or repeated.
    static let correlationThreshold = 0.85

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = max(sampleRate, 1000)
        self.channels = max(channels, 1)
        minimumPeriod = max(self.sampleRate / 400, 2)  // 2.5 ms
        maximumPeriod = self.sampleRate * 15 / 1000  // 15 ms
        decimation = max(self.sampleRate / 4000, 1)
        firstChannel = .allocate(capacity: 2 * maximumPeriod + 2)
        firstChannel.initialize(repeating: 0)
        decimated = .allocate(capacity: 2 * maximumPeriod / decimation + 2)
        decimated.initialize(repeating: 0)
    }

    deinit {
        firstChannel.deallocate()
        decimated.deallocate()
    }

    /// Frames the live region needs for the longest pitch period to be searched.
    var fullSearchFrames: Int { 2 * maximumPeriod }

    enum Direction { case shorten, lengthen }

    /// Removes (`shorten`) or repeats (`lengthen`) one pitch period at the head of `region`,
    /// whose first `liveFrames` frames are audio and whose tail has room for the inserted
    /// period when lengthening; shortening leaves at least `keepingFrames`. Periods longer than
    /// `longestFrames` or than the audio allows are not searched. A `pause` that does not repeat
    /// itself is stretched by the longest step, as quiet audio is. Returns the frames removed (negative) or inserted
    /// (positive), or 0 when the signal does not allow it.
    func stretch(
        _ direction: Direction, region: UnsafeMutableBufferPointer<Int16>, liveFrames: Int, keepingFrames: Int,
        longestFrames: Int, pause: Bool = false
    ) -> Int {
        let room = direction == .shorten ? min(liveFrames / 2, liveFrames - keepingFrames) : liveFrames / 2
        let tail = direction == .shorten ? room : region.count / channels - liveFrames
        let usable = min(min(maximumPeriod, room), min(tail, longestFrames))  // (variadic min allocates)
        guard usable >= minimumPeriod + decimation else { return 0 }
        let quiet = copyAndMeasure(region, longest: usable) < Self.quietLevel
        // Quiet audio has no pitch to keep: the longest allowed stretch moves the delay fastest.
        var (period, correlation) = quiet ? (usable, 1) : bestPeriod(longest: usable)
        if pause, correlation < Self.correlationThreshold { (period, correlation) = (usable, 1) }
        guard correlation >= Self.correlationThreshold else { return 0 }
        switch direction {
        case .shorten:
            // Head becomes crossfade(x[0..<L] → x[L..<2L]), then x[2L...]; L frames fewer.
            crossFade(region, from: 0, into: period, writingAt: period, frames: period)
            return -period
        case .lengthen:
            guard region.count >= (liveFrames + period) * channels else { return 0 }
            // Head becomes x[0..<L], crossfade(x[L..<2L] → x[0..<L]), then x[L...]; L frames more.
            let live = liveFrames * channels, shift = period * channels
            var index = live - 1
            while index >= shift {
                region[index + shift] = region[index]
                index -= 1
            }
            crossFade(region, from: 2 * period, into: 0, writingAt: period, frames: period)
            return period
        }
    }

    /// Writes at `writingAt` a linear cross-fade from the frames at `from` (fading out) to the
    /// frames at `into` (fading in).
    private func crossFade(
        _ region: UnsafeMutableBufferPointer<Int16>, from: Int, into: Int, writingAt: Int, frames: Int
    ) {
        for frame in 0..<frames {
            let weightIn = Int32(frame + 1) * 32768 / Int32(frames + 1)
            for channel in 0..<channels {
                let outgoing = Int32(region[(from + frame) * channels + channel])
                let incoming = Int32(region[(into + frame) * channels + channel])
                let mixed = (outgoing * (32768 - weightIn) + incoming * weightIn) >> 15
                region[(writingAt + frame) * channels + channel] = Int16(clamping: mixed)
            }
        }
    }

    /// Copies the first `2 · longest` frames of the first channel of `region` (and a decimated
    /// copy) for the period search; returns their mean magnitude.
    private func copyAndMeasure(_ region: UnsafeMutableBufferPointer<Int16>, longest: Int) -> Double {
        for index in 0..<(2 * longest) { firstChannel[index] = Int32(region[index * channels]) }
        let decimatedCount = 2 * longest / decimation
        var magnitude = 0
        for index in 0..<decimatedCount {
            var sum: Int32 = 0
            for tap in 0..<decimation { sum += firstChannel[index * decimation + tap] }
            decimated[index] = sum / Int32(decimation)
            magnitude += Int(decimated[index].magnitude)
        }
        return Double(magnitude) / Double(max(decimatedCount, 1))
    }

    /// The lag in 2.5 ms…`longest` whose segment best matches the one before it in the copied
    /// audio, and its normalized correlation.
    private func bestPeriod(longest: Int) -> (Int, Double) {
        var bestLag = minimumPeriod / decimation
        var bestScore = -Double.infinity
        for lag in max(minimumPeriod / decimation, 1)...max(longest / decimation, 1) {
            let score = Self.normalizedCorrelation(decimated, lag: lag)
            if score > bestScore {
                bestLag = lag
                bestScore = score
            }
        }
        // Refine around the decimated peak at the full rate.
        var period = min(max(bestLag * decimation, minimumPeriod), longest)
        var correlation = -Double.infinity
        let coarse = period
        for lag in max(coarse - decimation, minimumPeriod)...max(min(coarse + decimation, longest), minimumPeriod) {
            let score = Self.normalizedCorrelation(firstChannel, lag: lag)
            if score > correlation {
                period = lag
                correlation = score
            }
        }
        return (period, correlation)
    }

    /// The normalized cross-correlation of the first `lag` samples of `x` with the next `lag`.
    private static func normalizedCorrelation(_ x: UnsafeMutableBufferPointer<Int32>, lag: Int) -> Double {
        var cross = 0.0, energyA = 0.0, energyB = 0.0
        for index in 0..<lag {
            let a = Double(x[index]), b = Double(x[index + lag])
            cross += a * b
            energyA += a * a
            energyB += b * b
        }
        let energy = (energyA * energyB).squareRoot()
        return energy > 0 ? cross / energy : 0
    }
}
