internal import Glibc

/// A voice activity detector that finds the pauses of speech over background noise: it tracks
/// the noise floor by minimum statistics and calls audio speech only when it stands clear of it.
///
/// The audio is measured in 10 ms blocks, in two bands: the whole signal, and the signal after a
/// first-order pre-emphasis (`x[n] − 0.95·x[n−1]`), which keeps the part of speech above about
/// 300 Hz and drops the rumble of car or brown noise. Both block powers are summed exactly, in
/// integers (the pre-emphasis as `(20·x[n] − 19·x[n−1]) / 20`). For each band the block's power is smoothed
/// (time constant ``Configuration/smoothingMilliseconds``); the band's noise floor is the lowest
/// smoothed power of the last ``Configuration/floorWindowMilliseconds`` (the minimum over eight
/// sub-windows, so it forgets a quieter past within a window, and follows a louder one). A
/// block is speech when, in either band, its own power is at least
/// ``Configuration/speechMarginDecibels`` above that band's floor and above
/// ``Configuration/absoluteThresholdDBov``. After speech, blocks stay speech for
/// ``Configuration/hangoverMilliseconds``, so a pause is that long a stretch of audio near the
/// floor: the gap between phrases, not the closure of a consonant.
///
/// Until the first sub-window has been seen, the floor is digital silence: anything above the
/// absolute threshold is speech, so the start of a call is never mistaken for a pause. The floor
/// never counts above ``Configuration/loudestFloorDBov``: a steady signal louder than that is
/// not a background a call is held over but a tone or music, and stays speech.
///
/// Tuned on espeak-ng voices en-gb-scotland and en-029 (other sentences than any test's) over
/// sox white, pink and car noise and a babble of five other espeak-ng voices at 20 and 10 dB SNR.
/// It cannot tell speech from loud non-stationary noise: over babble at 10 dB SNR it finds about
/// half of the pauses. A slow talker's phrase that goes on for more than the window without a
/// gap lifts the floor to its quietest syllables, and the end of such a phrase may be called a
/// pause (a floor allowed to rise only slowly avoids that, but one digital-silence gap then
/// pins it down for seconds: over car noise and babble it found a quarter of the pauses).
///
/// Pure Swift, a value type; analysing allocates nothing. Multi-channel audio is judged by its
/// first channel.
public struct NoiseFloorVoiceActivityDetector: Sendable {
    /// The tuning of the detector.
    public struct Configuration: Sendable, Hashable {
        /// The PCM's sample rate. Default 8000.
        public var sampleRate: Int
        /// Interleaved channels; the first is measured. Default 1.
        public var channels: Int
        /// How far above a band's noise floor a block must be to count as speech. Default 6 dB.
        public var speechMarginDecibels: Double
        /// Blocks below this level (in both bands) are never speech. Default −60 dBov.
        public var absoluteThresholdDBov: Double
        /// The time constant of the smoothed power the floor is taken from. Default 100 ms.
        public var smoothingMilliseconds: Double
        /// How far back the floor looks for the lowest smoothed power. Default 2000 ms.
        public var floorWindowMilliseconds: Int
        /// How long blocks stay speech after the last loud one. Default 150 ms.
        public var hangoverMilliseconds: Int
        /// The loudest floor believed to be background noise. Default −30 dBov (at 10 dB SNR,
        /// noise under a talker peaking at −3 dBFS is around −32 dBov).
        public var loudestFloorDBov: Double

        /// A configuration with the defaults above, overridden by whatever is passed.
        public init(
            sampleRate: Int = 8000,
            channels: Int = 1,
            speechMarginDecibels: Double = 6,
            absoluteThresholdDBov: Double = -60,
            smoothingMilliseconds: Double = 100,
            floorWindowMilliseconds: Int = 2000,
            hangoverMilliseconds: Int = 150,
            loudestFloorDBov: Double = -30
        ) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.speechMarginDecibels = speechMarginDecibels
            self.absoluteThresholdDBov = absoluteThresholdDBov
            self.smoothingMilliseconds = smoothingMilliseconds
            self.floorWindowMilliseconds = floorWindowMilliseconds
            self.hangoverMilliseconds = hangoverMilliseconds
            self.loudestFloorDBov = loudestFloorDBov
        }
    }

    /// The tuning in use.
    public let configuration: Configuration
    /// Whether the audio analysed last is speech (including the hangover after it).
    public private(set) var isSpeech = false
    /// The noise floor of the whole band, in dBov (``EnergyVoiceActivityDetector/minimumLevelDBov``
    /// until the first sub-window has been seen).
    public var noiseFloorDBov: Double { wholeBand.floorDBov }

    private let blockSamples: Int
    /// What turns a block's sum of squares into a power relative to full scale.
    private let blockScale: Double
    private let hangoverBlocks: Int
    private var wholeBand: BandFloor
    private var emphasisedBand: BandFloor
    /// The thresholds as power ratios (from the configuration's decibels, computed once).
    private let margin: Double
    private let absolute: Double
    private let loudest: Double
    private var blockFill = 0
    /// The block's sums so far, exact in integers: of the squared samples, and of the squared
    /// pre-emphasised samples times 20 (`(20·x[n] − 19·x[n−1])²`). A block of 480 samples
    /// stays below 2^50, so both convert to `Double` exactly.
    private var wholeSum: Int64 = 0
    private var emphasisedSum: Int64 = 0
    private var previousSample: Int32 = 0
    private var hangoverLeft = 0

    /// A detector with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let rate = max(configuration.sampleRate, 1000)
        blockSamples = rate / 100
        blockScale = 1 / (Double(blockSamples) * 32_768 * 32_768)
        hangoverBlocks = max(configuration.hangoverMilliseconds, 0) / 10
        margin = pow(10, configuration.speechMarginDecibels / 10)
        absolute = pow(10, configuration.absoluteThresholdDBov / 10)
        loudest = pow(10, configuration.loudestFloorDBov / 10)
        let smoothing = exp(-10 / max(configuration.smoothingMilliseconds, 10))
        let subWindowBlocks = max(configuration.floorWindowMilliseconds / 10 / BandFloor.subWindows, 1)
        wholeBand = BandFloor(smoothing: smoothing, subWindowBlocks: subWindowBlocks)
        emphasisedBand = wholeBand
    }

    /// Analyses `frame` (any length, interleaved per ``Configuration/channels``) and returns
    /// whether the audio is speech after it (``isSpeech``). The decision changes at the end of
    /// each 10 ms block; a partial block is carried into the next call.
    @discardableResult
    public mutating func analyze(_ frame: UnsafeBufferPointer<Int16>) -> Bool {
        guard let base = frame.baseAddress else { return isSpeech }
        let stride = max(configuration.channels, 1)
        var remaining = (frame.count + stride - 1) / stride
        var next = base
        // Block by block, in integers (no sum can wrap: see ``wholeSum``). The upper band's
        // Σ(20·x[n] − 19·x[n−1])² is 400·Σx[n]² − 760·Σx[n]·x[n−1] + 361·Σx[n−1]², so one
        // loop without a test per sample takes both sums.
        while remaining > 0 {
            let take = min(blockSamples - blockFill, remaining)
            let (squares, products) =
                stride == 1
                ? BlockPowerSums.contiguous(next, count: take) : BlockPowerSums.strided(next, count: take, stride: stride)
            let previous = Int64(previousSample)
            let first = Int64(next[0])
            let last = Int64(next[(take - 1) * stride])
            let previousSquares = squares - last * last + previous * previous
            wholeSum &+= squares
            emphasisedSum &+= 400 * squares - 760 * (products + first * previous) + 361 * previousSquares
            previousSample = Int32(last)
            blockFill += take
            remaining -= take
            next += take * stride
            if blockFill == blockSamples { finishBlock() }
        }
        return isSpeech
    }

    /// Forgets the floors and the hangover, as if just created.
    public mutating func reset() {
        self = Self(configuration: configuration)
    }

    private mutating func finishBlock() {
        let whole = Double(wholeSum) * blockScale
        let emphasised = Double(emphasisedSum) / 400 * blockScale
        wholeSum = 0
        emphasisedSum = 0
        blockFill = 0
        let loud = wholeBand.isLoud(whole, margin: margin, absolute: absolute, loudestFloor: loudest)
        let loudAbove = emphasisedBand.isLoud(emphasised, margin: margin, absolute: absolute, loudestFloor: loudest)
        if loud || loudAbove {
            hangoverLeft = hangoverBlocks
            isSpeech = true
        } else if hangoverLeft > 0 {
            hangoverLeft -= 1
            isSpeech = true
        } else {
            isSpeech = false
        }
    }
}

/// One band's noise floor by minimum statistics: the lowest smoothed block power over eight
/// sub-windows.
private struct BandFloor: Sendable {
    static let subWindows = 8
    let smoothing: Double
    let subWindowBlocks: Int
    private var smoothed = -1.0
    private var currentMinimum = Double.infinity
    private var blocksInSubWindow = 0
    private var subWindowMinima = SIMD8<Double>(repeating: .infinity)
    /// The least of ``subWindowMinima``, taken when one of them changes (once a sub-window).
    private var closedSubWindowsMinimum = Double.infinity
    private var nextSubWindow = 0
    private var hasFloor = false

    init(smoothing: Double, subWindowBlocks: Int) {
        self.smoothing = smoothing
        self.subWindowBlocks = subWindowBlocks
    }

    /// The floor as a power relative to full scale (0 before the first sub-window).
    var floor: Double { hasFloor ? min(closedSubWindowsMinimum, currentMinimum) : 0 }

    var floorDBov: Double {
        let value = floor
        return value > 0 ? max(10 * log10(value), EnergyVoiceActivityDetector.minimumLevelDBov) : EnergyVoiceActivityDetector.minimumLevelDBov
    }

    /// Takes a block of `power` into the floor and says whether it stands `margin` (a power
    /// ratio) above the floor (at most `loudestFloor`) and above `absolute`.
    mutating func isLoud(_ power: Double, margin: Double, absolute: Double, loudestFloor: Double) -> Bool {
        smoothed = smoothed < 0 ? power : smoothing * smoothed + (1 - smoothing) * power
        currentMinimum = min(currentMinimum, smoothed)
        let loud = power >= min(floor, loudestFloor) * margin && power >= absolute
        blocksInSubWindow += 1
        if blocksInSubWindow == subWindowBlocks {
            subWindowMinima[nextSubWindow] = currentMinimum
            closedSubWindowsMinimum = subWindowMinima.min()
            nextSubWindow = (nextSubWindow + 1) % Self.subWindows
            currentMinimum = .infinity
            blocksInSubWindow = 0
            hasFloor = true
        }
        return loud
    }
}
