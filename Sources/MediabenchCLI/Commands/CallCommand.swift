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

    let name = "call"
    let summary = "Make a call between two sessions over loopback UDP through an impaired network."
    let discussion = """
        Prints a quality line each second (MOS, jitter, latency, loss), then a summary with the \
        measured mouth-to-ear delay.
        """
    var arguments: [any ArgumentDeclaring] {
        [
            Self.codec, Self.srtp, Self.duration, Self.scenario, Self.seed, Self.dtmf, Self.input, Self.output,
            Self.capture,
        ]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
