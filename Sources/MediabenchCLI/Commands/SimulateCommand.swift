/// `mediabench simulate`: replays a network trace through a jitter buffer (issue 5).
struct SimulateCommand: Command {
    static let trace = Option(
        "trace", "FILE", .string, help: "Network trace to replay (trace CSV or rtpdump).")
    static let scenario = Option(
        "scenario", "NAME", .string, help: "Generate the trace from a named network scenario instead.")
    static let seed = Option(
        "seed", "N", .unsignedInteger, help: "Seed of the scenario's random generator (default: 1).")
    static let jitterBuffer = Option(
        "jitter-buffer", "ours|fixed:MS", .string, help: "The buffer to replay through (default: ours).")
    static let clockRate = Option(
        "clock-rate", "HZ", .positiveInteger, help: "RTP clock rate of the trace (default: 8000).")
    static let frameDuration = Option(
        "frame-ms", "MS", .positiveInteger, help: "Audio per packet in milliseconds (default: 20).")
    static let format = Option.dataFormat
    static let log = Option("log", "FILE", .string, help: "Write every playout decision to FILE.")
    static let audio = Option(
        "audio", "IN.wav", .string, help: "Play this speech through the whole path (needs --output).")
    static let output = Option(
        "output", "OUT.wav", .string, help: "Where to write what a listener would hear (with --audio).")

    let name = "simulate"
    let summary = "Replay a network trace through a jitter buffer and report delay and loss."
    let discussion = """
        Give --trace or --scenario. Prints playout delay (mean, p50, p95, p99), network, late and \
        effective loss, concealment, interruptions, time-stretch, recovery after spikes and CPU \
        per pull, all computed from what was played.
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.trace, Self.scenario, Self.seed, Self.jitterBuffer, Self.clockRate, Self.frameDuration,
         Self.format, Self.log, Self.audio, Self.output]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
