#if canImport(Glibc)
    internal import Glibc  // libm, for rounding and square roots
#endif

/// Packet loss concealment for 8 kHz narrowband audio after ITU-T G.711 Appendix I
/// (pitch-period waveform substitution), with the two simple baselines it is compared against.
///
/// Feed every good frame through ``receive(_:)`` (it keeps a 48.75 ms history and, on the first
/// good frame after a loss, blends the concealment into it) and ask ``conceal(into:)`` for each
/// lost frame. Frames may be any length; 10 ms (80 samples) and 20 ms (160 samples) are usual.
///
/// With ``G711ConcealmentMethod/appendixI`` a loss is filled as Appendix I describes:
/// - the pitch period is estimated once per loss by normalised cross-correlation of the last
///   20 ms of history against lags of 40 ... 120 samples (5 ms ... 15 ms);
/// - the last period is repeated, its end overlap-added with the samples one period earlier over
///   a quarter period so the repetition has no seam; after 10 ms and again after 20 ms one more
///   (older) period joins the cycle, again with a quarter-period overlap-add;
/// - from 10 ms into the loss the output fades by 20 % per 10 ms, reaching silence at 60 ms;
/// - the first good frame is overlap-added with the continued concealment over a quarter period
///   plus 4 ms per further 10 ms lost (at most 10 ms).
///
/// Appendix I delays all output by 3.75 ms so that it can also overlap-add the last quarter
/// period *before* the loss. This implementation adds no delay: instead the first quarter period
/// of the substitute is overlap-added with the same waveform shifted to continue the last real
/// sample, which joins the two without a step.
///
/// State lives in fixed buffers allocated by `init`; concealing and receiving allocate nothing.
public struct G711PacketLossConcealer: Sendable {
    /// How lost frames are filled.
    public let method: G711ConcealmentMethod

    /// The most recent output, oldest first: 3 × the longest pitch + a quarter of it. Brought
    /// up to date from ``recent`` only when a loss reads it (``syncHistory()``).
    private var history: [Float]
    /// The output as it comes, appended without shifting; its last ``historyLength`` samples
    /// (ending at ``recentEnd``) are the history. Moved back to its start when full.
    private var recent: [Int16]
    private var recentEnd = Self.historyLength
    /// Whether ``recent`` holds samples ``history`` does not have yet.
    private var historyIsStale = false
    /// A snapshot of ``history`` taken when a loss starts, its last quarter period smoothed so
    /// the pitch cycle repeats without a seam; the substitute is read from it.
    private var cycleSource: [Float]
    /// The pitch period of the current loss, in samples.
    private var pitch = Self.minimumPitch
    /// Samples concealed since the loss began (0 when the last frame was good).
    private var lostSamples = 0
    /// How many pitch periods the substitute cycles through (1 ... 3).
    private var periods = 1
    /// Position of the next substitute sample within the current cycle.
    private var cycleOffset = 0
    /// The step between the last real sample and the raw substitute, faded out over the first
    /// quarter period.
    private var seamOffset: Float = 0
    /// The cycle that is being faded out after ``periods`` grew: its length in periods, the
    /// position in it, and the samples of fade left.
    private var fadingPeriods = 0
    private var fadingOffset = 0
    private var fadeRemaining = 0

    /// A concealer with silent history.
    public init(method: G711ConcealmentMethod = .appendixI) {
        self.method = method
        history = [Float](repeating: 0, count: Self.historyLength)
        recent = [Int16](repeating: 0, count: Self.recentCapacity)
        cycleSource = [Float](repeating: 0, count: Self.historyLength)
    }

    /// Whether the last frame was concealed (so the next good frame will be blended in).
    public var isConcealing: Bool {
        lostSamples > 0
    }

    /// Records a good frame; right after a loss, first blends the concealment into its start.
    public mutating func receive(_ pcm: UnsafeMutableBufferPointer<Int16>) {
        if lostSamples > 0 {
            if method == .appendixI {
                blendIntoGoodFrame(pcm)
            }
            lostSamples = 0
        }
        record(UnsafeBufferPointer(pcm))
    }

    /// Fills `pcm` with a substitute for a lost frame of `pcm.count` samples.
    public mutating func conceal(into pcm: UnsafeMutableBufferPointer<Int16>) {
        syncHistory()
        switch method {
        case .zeroFill:
            pcm.update(repeating: 0)
            lostSamples += pcm.count
        case .frameRepetition:
            repeatLastSamples(into: pcm)
            lostSamples += pcm.count
        case .appendixI:
            if lostSamples == 0 {
                startLoss()
            }
            for index in pcm.indices {
                pcm[index] = Self.clamp(nextSubstituteSample())  // counts the lost samples
            }
        }
        record(UnsafeBufferPointer(pcm))
    }
}

// MARK: - Appendix I parameters (8 kHz)

extension G711PacketLossConcealer {
    /// The shortest pitch period searched: 5 ms.
    static let minimumPitch = 40
    /// The longest pitch period searched: 15 ms.
    static let maximumPitch = 120
    /// The stretch of history correlated against each candidate period: 20 ms (a multiple of
    /// 8, the SIMD width of ``estimatePitch(_:)``).
    static let correlationLength = 160
    /// Three of the longest periods plus the longest overlap: 48.75 ms.
    static let historyLength = 3 * maximumPitch + maximumPitch / 4
    /// The room of ``recent``: eight histories, so it is moved back once every 17 frames of 20 ms.
    static let recentCapacity = 8 * historyLength
    /// Appendix I's processing unit: 10 ms.
    static let tenMilliseconds = 80
    /// The fade after the first 10 ms: 20 % per 10 ms, so silence at 60 ms.
    static let attenuationPerSample: Float = 0.2 / Float(tenMilliseconds)
    /// How much longer the blend into the good frame gets per further 10 ms lost: 4 ms.
    static let blendIncrementPerTenMilliseconds = 32
    /// An energy floor for the correlation normalisation, so near-silence does not divide by 0.
    static let minimumCorrelationEnergy = Float(correlationLength) * 64

    /// The overlap-add length: a quarter of the pitch period.
    var overlap: Int {
        pitch / 4
    }
}

// MARK: - Appendix I concealment

extension G711PacketLossConcealer {
    /// Estimates the pitch and prepares the cycle source at the first lost sample.
    private mutating func startLoss() {
        pitch = Self.estimatePitch(history)
        periods = 1
        cycleOffset = 0
        fadeRemaining = 0
        let count = Self.historyLength
        let overlap = overlap
        let pitch = pitch
        history.withUnsafeBufferPointer { history in
            cycleSource.withUnsafeMutableBufferPointer { source in
                _ = source.update(fromContentsOf: history)
                // Blend the end of the last period into the samples that precede it, one period
                // earlier, so that wrapping from the end back to the start is smooth.
                for index in 0..<overlap {
                    let weight = Float(index + 1) / Float(overlap + 1)
                    let position = count - overlap + index
                    source[position] = (1 - weight) * history[position] + weight * history[position - pitch]
                }
            }
            // The substitute starts at history[count - pitch], whose natural predecessor is
            // history[count - pitch - 1]; shift it to continue from the last real sample instead.
            seamOffset = history[count - 1] - history[count - pitch - 1]
        }
    }

    /// The next sample of the substitute: the pitch cycle, with the fade-ins at the start and at
    /// each period change, and the attenuation after 10 ms.
    private mutating func nextSubstituteSample() -> Float {
        if (lostSamples == Self.tenMilliseconds || lostSamples == 2 * Self.tenMilliseconds) && periods < 3 {
            // Cycle through one more, older, period from the same phase, fading the old cycle out.
            fadingPeriods = periods
            fadingOffset = cycleOffset
            fadeRemaining = overlap
            periods += 1
        }
        var value = cycleSample(periods: periods, offset: cycleOffset)
        cycleOffset = Self.advance(cycleOffset, cycleLength: periods * pitch)
        if fadeRemaining > 0 {
            let weight = Float(overlap - fadeRemaining + 1) / Float(overlap + 1)
            value = weight * value + (1 - weight) * cycleSample(periods: fadingPeriods, offset: fadingOffset)
            fadingOffset = Self.advance(fadingOffset, cycleLength: fadingPeriods * pitch)
            fadeRemaining -= 1
        }
        if lostSamples < overlap {
            value += seamOffset * (1 - Float(lostSamples + 1) / Float(overlap + 1))
        }
        let fadeSamples = max(0, lostSamples - Self.tenMilliseconds)
        lostSamples += 1
        return value * max(0, 1 - Self.attenuationPerSample * Float(fadeSamples))
    }

    /// The position after `offset` in a cycle of `cycleLength` samples.
    private static func advance(_ offset: Int, cycleLength: Int) -> Int {
        offset + 1 == cycleLength ? 0 : offset + 1
    }

    /// Sample `offset` of the cycle through the last `periods` pitch periods of the cycle source.
    private func cycleSample(periods: Int, offset: Int) -> Float {
        cycleSource.withUnsafeBufferPointer { $0[Self.historyLength - periods * pitch + offset] }
    }

    /// Overlap-adds the continued substitute with the start of the first good frame.
    private mutating func blendIntoGoodFrame(_ pcm: UnsafeMutableBufferPointer<Int16>) {
        let lostTenMilliseconds = (lostSamples + Self.tenMilliseconds - 1) / Self.tenMilliseconds
        let length = min(
            overlap + (lostTenMilliseconds - 1) * Self.blendIncrementPerTenMilliseconds,
            Self.tenMilliseconds,
            pcm.count
        )
        for index in 0..<length {
            let weight = Float(index + 1) / Float(length + 1)
            let blended = weight * Float(pcm[index]) + (1 - weight) * nextSubstituteSample()
            pcm[index] = Self.clamp(blended)
        }
    }

    /// The pitch period, in samples, that best predicts the last 20 ms of `history`: the lag in
    /// 40 ... 120 with the highest cross-correlation normalised by the candidate's energy
    /// (the shorter lag wins a tie, so a multiple of the period is not chosen over it).
    static func estimatePitch(_ history: [Float]) -> Int {
        history.withUnsafeBufferPointer { samples in
            guard let base = samples.baseAddress else { return minimumPitch }
            let target = UnsafeRawPointer(base + (historyLength - correlationLength))
            var bestLag = minimumPitch
            var bestScore = -Float.infinity
            for lag in stride(from: maximumPitch, through: minimumPitch, by: -1) {
                let candidate = UnsafeRawPointer(base + (historyLength - correlationLength - lag))
                // Eight lanes at a time: a scalar float sum cannot be reordered, so it would not vectorise.
                var correlation = SIMD8<Float>()
                var energy = SIMD8<Float>()
                let stride = MemoryLayout<SIMD8<Float>>.size
                for offset in Swift.stride(from: 0, to: correlationLength * MemoryLayout<Float>.size, by: stride) {
                    let candidateLanes = candidate.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                    correlation += target.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * candidateLanes
                    energy += candidateLanes * candidateLanes
                }
                let score = correlation.sum() / max(energy.sum(), minimumCorrelationEnergy).squareRoot()
                if score >= bestScore {
                    bestScore = score
                    bestLag = lag
                }
            }
            return bestLag
        }
    }
}

// MARK: - History and the baselines

extension G711PacketLossConcealer {
    /// Appends `pcm` to the history, dropping the oldest samples.
    private mutating func record(_ pcm: UnsafeBufferPointer<Int16>) {
        let newCount = min(pcm.count, Self.historyLength)
        guard newCount > 0, let newest = pcm.baseAddress?.advanced(by: pcm.count - newCount) else { return }
        let end = recentEnd
        recentEnd = recent.withUnsafeMutableBufferPointer { recent in
            guard let base = recent.baseAddress else { return end }
            var end = end
            if end + newCount > Self.recentCapacity {
                base.update(from: base + (end - Self.historyLength), count: Self.historyLength)
                end = Self.historyLength
            }
            (base + end).update(from: newest, count: newCount)
            return end + newCount
        }
        historyIsStale = true
    }

    /// Brings ``history`` up to date with the output recorded since a loss last read it (the
    /// same values the history would hold had each frame been shifted in as it came).
    private mutating func syncHistory() {
        guard historyIsStale else { return }
        historyIsStale = false
        let start = recentEnd - Self.historyLength
        recent.withUnsafeBufferPointer { recent in
            history.withUnsafeMutableBufferPointer { history in
                for index in 0..<Self.historyLength {
                    history[index] = Float(recent[start + index])
                }
            }
        }
    }

    /// Repeats the last `pcm.count` samples of history (cyclically if the frame is longer).
    private func repeatLastSamples(into pcm: UnsafeMutableBufferPointer<Int16>) {
        let length = min(pcm.count, Self.historyLength)
        history.withUnsafeBufferPointer { history in
            for index in pcm.indices {
                pcm[index] = Self.clamp(history[Self.historyLength - length + index % length])
            }
        }
    }

    /// `value` rounded to the nearest 16-bit sample, saturating.
    static func clamp(_ value: Float) -> Int16 {
        Int16(max(-32_768, min(32_767, value.rounded())))
    }
}
