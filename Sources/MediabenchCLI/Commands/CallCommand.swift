import Codecs

/// `mediabench call`: two sessions talking over loopback UDP through an impairment relay
/// (issue 7).
struct CallCommand: Command {
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string, help: "Codec of the call (default: opus).")
    static let srtp = Option(
        "srtp", "SUITE", .string,
        help: "SRTP crypto suite, e.g. AEAD_AES_128_GCM or AES_CM_128_HMAC_SHA1_80 (default: none).")
    static let duration = Option(
        "duration", "SECONDS", .number(in: 1...86_400), help: "Length of the call (default: 30).")
    static let scenario = Option("scenario", "NAME", .string, help: "Network scenario of the relay (default: clean).")
    static let seed = Option(
        "seed", "N", .unsignedInteger, help: "Seed of the scenario's random generator (default: 1).")
    static let dtmf = Option(
        "dtmf", "DIGITS", .string, help: "Send these RFC 4733 digits (0-9, *, #, A-D) during the call.")
    static let input = Option(
        "input", "IN.wav", .string, help: "Speech sent by the caller (default: a built-in test signal).")
    static let output = Option("output", "OUT.wav", .string, help: "Where to write what the callee heard.")
    static let capture = Option("capture", "FILE.pcap", .string, help: "Write what went over the wire to a pcap file.")
    static let jitterBuffer = Option(
        "jitter-buffer", JitterBufferChoice.values, .string, help: "Both sessions' jitter buffers (default: ours).")

    let name = "call"
    let summary = "Make a call between two sessions over loopback UDP through an impaired network."
    let discussion = """
        The caller sends IN.wav (any rate, mixed to mono and resampled to the codec's 8 or \
        48 kHz) or a built-in speech-like signal; the callee talks back and records what it \
        hears. The relay between them forwards real datagrams with the delays, losses, \
        reordering and duplicates of the scenario, each direction with its own seeded trace \
        (RTCP too, from traces of its own). DTMF digits are sent one second in. Prints a \
        quality line each second (MOS, jitter, latency, loss), then a summary with the \
        mouth-to-ear delay measured by cross-correlating what was sent with what was heard. \
        The capture holds what left the relay (SRTP-protected when SRTP is on).
        """
    var arguments: [any ArgumentDeclaring] {
        [
            Self.codec, Self.srtp, Self.duration, Self.scenario, Self.seed, Self.dtmf, Self.input, Self.output,
            Self.capture, Self.jitterBuffer,
        ]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var settings = CallSettings()
        if let codec = arguments[Self.codec] { settings.codec = try TranscodeCodec(parsing: codec) }
        if let suite = arguments[Self.srtp] { settings.srtp = try CallSettings.srtpSuite(named: suite) }
        settings.durationSeconds = arguments[Self.duration] ?? 30
        settings.scenario = try CallSettings.scenario(named: arguments[Self.scenario] ?? "clean")
        settings.seed = arguments[Self.seed] ?? 1
        settings.dtmf = try CallSettings.dtmfDigits(arguments[Self.dtmf] ?? "")
        settings.capturePath = arguments[Self.capture]
        settings.jitterBuffer = try JitterBufferChoice.configuration(arguments[Self.jitterBuffer] ?? "ours")
        if let input = arguments[Self.input] {
            settings.speech = try Self.speech(from: input, in: settings.audioFormat)
        }
        let outcome = try RelayedCall(settings: settings).run(printingTo: console)
        if let output = arguments[Self.output] {
            try Self.write(outcome.received, in: settings.audioFormat, to: output)
            console.write("wrote \(output)\n")
        }
        return 0
    }

    /// The WAV file at `path`, mixed to mono and resampled to `format`.
    static func speech(from path: String, in format: AudioFormat) throws -> [Int16] {
        let audio: WAVAudio
        do {
            audio = try WAVAudio(contentsOfFile: path)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        do {
            return try Transcoder.convert(audio.samples, from: audio.format, to: format)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// Writes `samples` as a WAV file.
    static func write(_ samples: [Int16], in format: AudioFormat, to path: String) throws {
        do {
            try WAVAudio(format: format, samples: samples).write(toFile: path)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
