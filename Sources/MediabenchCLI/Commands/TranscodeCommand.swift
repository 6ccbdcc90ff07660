import Codecs
import Foundation

/// `mediabench transcode`: encode a WAV file, drop packets, decode with concealment (issue 4).
struct TranscodeCommand: Command {
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string, required: true,
        help: "Codec, with Opus's bitrate in bit/s (opus:24000).")
    static let loss = Option(
        "loss", "PERCENT", .number(in: 0...100), help: "Drop this share of packets at random (default: 0).")
    static let seed = Option("seed", "N", .unsignedInteger, help: "Seed of the loss pattern (default: 1).")
    static let forwardErrorCorrection = Flag("fec", help: "Use Opus in-band FEC to recover lost packets.")
    static let concealment = Option(
        "plc", "appendix-i|repeat|zero", .choice(["appendix-i", "repeat", "zero"]),
        help: "How G.711 conceals a lost packet (default: appendix-i, ITU-T G.711 Appendix I).")
    static let complexity = Option(
        "complexity", "N", .integer(in: 0...10), help: "Opus encoder complexity (default: 10).")
    static let input = Option("input", "IN.wav", .string, required: true, help: "16-bit PCM WAV to encode.")
    static let output = Option(
        "output", "OUT.wav", .string, required: true, help: "Where to write the decoded audio, at the input's rate.")

    let name = "transcode"
    let summary = "Encode a WAV file, drop packets as asked, decode with concealment."
    let discussion = """
        Packets are 20 ms. G.711 works at 8 kHz mono and Opus at the input's rate when libopus
        takes it (8, 12, 16, 24 or 48 kHz), else at 48 kHz; other rates go through the speexdsp
        resampler (8, 16, 24, 32 and 48 kHz inputs). The output has the input's rate, channels and
        length, aligned with it (the codec's and resamplers' delays are removed).
        """
    var arguments: [any ArgumentDeclaring] {
        [
            Self.codec, Self.loss, Self.seed, Self.forwardErrorCorrection, Self.concealment, Self.complexity,
            Self.input, Self.output,
        ]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let codec = try TranscodeCodec(parsing: try arguments.required(Self.codec))
        if arguments[Self.forwardErrorCorrection], case .g711 = codec {
            throw UsageError("--fec: G.711 has no forward error correction")
        }
        let transcoder = Transcoder(
            codec: codec,
            complexity: arguments[Self.complexity] ?? 10,
            forwardErrorCorrection: arguments[Self.forwardErrorCorrection],
            g711Concealment: Self.concealmentMethod(arguments[Self.concealment]),
            lossPercent: arguments[Self.loss] ?? 0,
            seed: arguments[Self.seed] ?? 1)
        let inputPath = try arguments.required(Self.input)
        let outputPath = try arguments.required(Self.output)
        let input: WAVAudio
        do {
            input = try WAVAudio(contentsOfFile: inputPath)
        } catch {
            throw CommandFailure("\(inputPath): \(error)")
        }
        let (audio, summary) = try transcoder.run(input)
        do {
            try audio.write(toFile: outputPath)
        } catch {
            throw CommandFailure("\(outputPath): \(error)")
        }
        let seconds = Double(input.frameCount) / Double(input.format.sampleRate)
        let kilobits = Double(summary.payloadBytes * 8) / max(seconds, 0.001) / 1000
        console.write(
            """
            \(codec), 20 ms packets: \(summary.packets) packets, \(summary.lost) lost, \
            \(summary.concealed) concealed, \(summary.recoveredByFEC) recovered by FEC
            payload \(String(format: "%.1f", kilobits)) kbit/s; algorithmic delay \
            \(String(format: "%.1f", summary.algorithmicDelayMilliseconds)) ms
            wrote \(outputPath) (\(input.format), \(String(format: "%.2f", seconds)) s)

            """)
        return 0
    }

    private static func concealmentMethod(_ name: String?) -> G711ConcealmentMethod {
        switch name {
        case "repeat": .frameRepetition
        case "zero": .zeroFill
        default: .appendixI
        }
    }
}
