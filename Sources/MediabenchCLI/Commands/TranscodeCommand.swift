/// `mediabench transcode`: encode a WAV file, drop packets, decode with concealment (issue 4).
struct TranscodeCommand: Command {
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string, required: true,
        help: "Codec, with Opus's bitrate in bit/s (opus:24000).")
    static let loss = Option(
        "loss", "PERCENT", .number(in: 0...100), help: "Drop this share of packets at random (default: 0).")
    static let seed = Option("seed", "N", .unsignedInteger, help: "Seed of the loss pattern (default: 1).")
    static let forwardErrorCorrection = Flag("fec", help: "Use Opus in-band FEC to recover lost packets.")
    static let input = Option("input", "IN.wav", .string, required: true, help: "16-bit PCM WAV to encode.")
    static let output = Option(
        "output", "OUT.wav", .string, required: true, help: "Where to write the decoded audio, at the input's rate.")

    let name = "transcode"
    let summary = "Encode a WAV file, drop packets as asked, decode with concealment."
    var arguments: [any ArgumentDeclaring] {
        [Self.codec, Self.loss, Self.seed, Self.forwardErrorCorrection, Self.input, Self.output]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
