import Foundation

/// Speech made by espeak-ng and background noise made by sox, mixed at a chosen SNR, for tests of
/// decisions on speech in noise (8 kHz 16-bit mono throughout).
///
/// The sentences and the babble's voices here are none of those the pause detector was tuned on
/// (see `NoiseFloorVoiceActivityDetector`) nor those of the jitter benchmark's speech.
public enum NoisySpeech {
    /// The sample rate of everything made here.
    public static let sampleRate = 8000

    /// A talker: an espeak-ng voice and its speaking rate in words per minute.
    public struct Talker: Sendable, CustomStringConvertible {
        /// The espeak-ng voice (`-v`).
        public let voice: String
        /// The speaking rate (`-s`).
        public let wordsPerMinute: Int

        /// A talker.
        public init(voice: String, wordsPerMinute: Int) {
            self.voice = voice
            self.wordsPerMinute = wordsPerMinute
        }

        /// `voice@rate`.
        public var description: String { "\(voice)@\(wordsPerMinute)" }
    }

    /// A background noise made by sox (`-R`: the same on every run).
    public enum Noise: String, CaseIterable, Sendable {
        /// Flat-spectrum noise.
        case white
        /// 1/f noise.
        case pink
        /// Four espeak-ng voices (other languages and voices than the talkers') reading at once.
        case babble
        /// A car's rumble: brown noise low-passed at 200 Hz.
        case car
    }

    /// Sentences the talkers read (Harvard lists, none used in tuning or the benchmark).
    public static let sentences =
        "The stale smell of old beer lingers. It takes heat to bring out the odor. "
        + "A cold dip restores health and zest. Take the winding path to reach the lake. "
        + "The wide road shimmered in the hot sun. The lazy cow lay in the cool grass."

    /// What `talker` says reading ``sentences``, normalised to −3 dBFS peak.
    public static func speech(_ talker: Talker) throws -> [Int16] {
        try inScratchDirectory { directory in
            let raw = directory.appendingPathComponent("speech.wav").path
            try run(["espeak-ng", "-v", talker.voice, "-s", String(talker.wordsPerMinute), "-w", raw, sentences])
            return try convert(raw, in: directory, effects: ["norm", "-3"])
        }
    }

    /// `count` samples of `noise`.
    public static func noise(_ noise: Noise, count: Int) throws -> [Int16] {
        let seconds = String(format: "%.3f", Double(count) / Double(sampleRate) + 0.1)
        let samples: [Int16] = try inScratchDirectory { directory in
            let out = directory.appendingPathComponent("noise.raw").path
            let format = ["-r", String(sampleRate), "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw"]
            switch noise {
            case .white, .pink:
                try run(["sox", "-R", "-n"] + format + [out, "synth", seconds, "\(noise.rawValue)noise", "vol", "0.5"])
            case .car:
                try run(["sox", "-R", "-n"] + format + [out, "synth", seconds, "brownnoise", "lowpass", "200", "norm", "-3"])
            case .babble:
                var voices: [String] = []
                for (index, voice) in ["de", "es", "en-us+f2", "en-gb+m2"].enumerated() {
                    let path = directory.appendingPathComponent("talker\(index).wav").path
                    try run(["espeak-ng", "-v", voice, "-s", "165", "-w", path, sentences])
                    voices.append(path)
                }
                let mixed = directory.appendingPathComponent("babble.wav").path
                try run(["sox", "-m"] + voices + ["-r", String(sampleRate), "-c", "1", "-b", "16", mixed, "norm", "-3"])
                try run(["sox", mixed] + format + [out, "repeat", "5", "trim", "0", seconds])
            }
            return try readRaw(out)
        }
        guard samples.count >= count else { throw ExternalTool.Failure(command: ["sox"], status: 0, standardError: "short noise") }
        return Array(samples.prefix(count))
    }

    /// `speech` with `noise` added at `snrDecibels` below the speech's RMS level (over the whole
    /// recording, pauses included, as `make_bench_speech.sh` mixes).
    public static func mix(_ speech: [Int16], _ noise: [Int16], snrDecibels: Double) -> [Int16] {
        let speechPower = meanSquare(speech)
        let noisePower = meanSquare(noise.prefix(speech.count))
        let gain = noisePower > 0 ? (speechPower / noisePower).squareRoot() / pow(10, snrDecibels / 20) : 0
        return zip(speech, noise).map { Int16(clamping: Int((Double($0) + gain * Double($1)).rounded())) }
    }

    /// The known answer for a clean recording, per 10 ms block: speech where the block is
    /// within 15 dB of the active speech level (the power mean of the blocks above −60 dBov),
    /// silence where it is more than 35 dB below it; blocks between are neither.
    public struct CleanActivity: Sendable {
        /// Blocks of clear speech.
        public let speech: [Bool]
        /// Blocks of silence.
        public let silence: [Bool]
    }

    /// The activity of the clean recording `clean`, 10 ms blocks.
    public static func activity(ofClean clean: [Int16]) -> CleanActivity {
        let levels = blockLevels(clean, block: sampleRate / 100)
        let active = levels.filter { $0 > -60 }
        let activeLevel = 10 * log10(active.reduce(0.0) { $0 + pow(10, $1 / 10) } / Double(max(active.count, 1)))
        return CleanActivity(speech: levels.map { $0 >= activeLevel - 15 }, silence: levels.map { $0 < activeLevel - 35 })
    }

    /// The level of each `block`-sample block in dBov (−120 for digital silence).
    public static func blockLevels(_ samples: [Int16], block: Int) -> [Double] {
        stride(from: 0, to: samples.count - block + 1, by: block).map { start in
            let power = meanSquare(samples[start..<start + block]) / (32_768.0 * 32_768.0)
            return power > 0 ? max(10 * log10(power), -120) : -120
        }
    }

    private static func meanSquare<Samples: Collection>(_ samples: Samples) -> Double where Samples.Element == Int16 {
        guard !samples.isEmpty else { return 0 }
        return samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
    }

    private static func convert(_ input: String, in directory: URL, effects: [String]) throws -> [Int16] {
        let out = directory.appendingPathComponent("converted.raw").path
        try run(
            ["sox", input, "-r", String(sampleRate), "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", out] + effects
        )
        return try readRaw(out)
    }

    /// Runs espeak-ng or sox with a 60 s deadline (coreutils `timeout`), failing by name when
    /// the program is not installed.
    private static func run(_ arguments: [String]) throws {
        try ExternalTool.require(arguments[0])
        try ExternalTool.run(["timeout", "60"] + arguments)
    }

    private static func readRaw(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { bytes in
            (0..<(bytes.count / 2)).map { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
        }
    }

    private static func inScratchDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("noisy-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
