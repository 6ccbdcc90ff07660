internal import Glibc

/// A voice activity detector for DTX and comfort-noise decisions, built on frame energy alone.
///
/// Each frame's level is measured in dBov: `20·log10(rms / 32768)`, so a full-scale square wave is
/// 0 dBov and a full-scale sine −3 dBov; digital silence reads ``minimumLevelDBov``. A frame is
/// speech when its level is at least ``Configuration/speechMarginDecibels`` above the tracked
/// noise floor and above ``Configuration/absoluteThresholdDBov``. The noise floor follows the
/// level down at once and up slowly (``Configuration/noiseFloorRiseDecibelsPerSecond``), so it
/// settles on the quietest recent frames, the background between words. After speech, frames stay
/// marked as speech for ``Configuration/hangoverMilliseconds`` so word endings and short pauses
/// are not clipped.
///
/// Pure Swift, a value type; deciding allocates nothing. It is deliberately simple: it cannot tell
/// speech from loud non-stationary noise, which a spectral VAD could.
public struct EnergyVoiceActivityDetector: Sendable {
    /// The tuning of the detector.
    public struct Configuration: Sendable, Hashable {
        /// The PCM's sample rate, to turn frame lengths into time. Default 48 000.
        public var sampleRate: Int
        /// Interleaved channels; all are measured together. Default 1.
        public var channels: Int
        /// How far above the noise floor a frame must be to count as speech. Default 9 dB.
        public var speechMarginDecibels: Double
        /// Frames below this level are never speech, whatever the floor. Default −55 dBov.
        public var absoluteThresholdDBov: Double
        /// How fast the noise floor may rise, while the level stays above it. Default 3 dB/s.
        public var noiseFloorRiseDecibelsPerSecond: Double
        /// How long frames stay speech after the last loud one. Default 200 ms.
        public var hangoverMilliseconds: Int

        /// A configuration with the defaults above, overridden by whatever is passed.
        public init(
            sampleRate: Int = 48_000,
            channels: Int = 1,
            speechMarginDecibels: Double = 9,
            absoluteThresholdDBov: Double = -55,
            noiseFloorRiseDecibelsPerSecond: Double = 3,
            hangoverMilliseconds: Int = 200
        ) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.speechMarginDecibels = speechMarginDecibels
            self.absoluteThresholdDBov = absoluteThresholdDBov
            self.noiseFloorRiseDecibelsPerSecond = noiseFloorRiseDecibelsPerSecond
            self.hangoverMilliseconds = hangoverMilliseconds
        }
    }

    /// The level reported for digital silence, in dBov.
    public static let minimumLevelDBov = -120.0

    /// The tuning in use.
    public let configuration: Configuration
    /// The current noise floor estimate, in dBov (``minimumLevelDBov`` before the first frame).
    public private(set) var noiseFloorDBov: Double
    /// The level of the last frame, in dBov.
    public private(set) var lastLevelDBov: Double
    /// Hangover left, in samples per channel; speech continues while it is above zero.
    private var hangoverSamplesLeft = 0

    /// Whether a frame has been measured, which sets the first noise floor.
    private var hasMeasured = false

    /// A detector with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        noiseFloorDBov = Self.minimumLevelDBov
        lastLevelDBov = Self.minimumLevelDBov
    }

    /// The level of `frame` in dBov (``minimumLevelDBov`` for silence or an empty frame).
    public static func levelDBov(of frame: UnsafeBufferPointer<Int16>) -> Double {
        guard !frame.isEmpty else { return minimumLevelDBov }
        var sumOfSquares: Int64 = 0
        for sample in frame {
            let value = Int64(sample)
            sumOfSquares &+= value &* value
        }
        let meanSquare = Double(sumOfSquares) / Double(frame.count)
        guard meanSquare > 0 else { return minimumLevelDBov }
        return max(minimumLevelDBov, 10 * log10(meanSquare / (32_768.0 * 32_768.0)))
    }

    /// Measures `frame` (any length, interleaved per ``Configuration/channels``), updates the noise
    /// floor and the hangover, and returns whether the frame is speech.
    public mutating func isSpeech(_ frame: UnsafeBufferPointer<Int16>) -> Bool {
        let level = Self.levelDBov(of: frame)
        lastLevelDBov = level
        let samplesPerChannel = frame.count / max(1, configuration.channels)
        let seconds = Double(samplesPerChannel) / Double(max(1, configuration.sampleRate))
        if !hasMeasured {
            noiseFloorDBov = level
            hasMeasured = true
        }

        let loud =
            level >= noiseFloorDBov + configuration.speechMarginDecibels
            && level >= configuration.absoluteThresholdDBov
        if level < noiseFloorDBov {
            noiseFloorDBov = level
        } else {
            noiseFloorDBov = min(level, noiseFloorDBov + configuration.noiseFloorRiseDecibelsPerSecond * seconds)
        }

        if loud {
            hangoverSamplesLeft = configuration.sampleRate * configuration.hangoverMilliseconds / 1000
            return true
        }
        guard hangoverSamplesLeft > 0 else { return false }
        hangoverSamplesLeft -= samplesPerChannel
        return true
    }

    /// Forgets the noise floor and the hangover, as if just created.
    public mutating func reset() {
        hasMeasured = false
        noiseFloorDBov = Self.minimumLevelDBov
        lastLevelDBov = Self.minimumLevelDBov
        hangoverSamplesLeft = 0
    }
}
