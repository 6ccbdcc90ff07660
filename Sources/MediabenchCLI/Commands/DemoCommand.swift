/// `mediabench demo`: the README's main job, a call through the whole stack on a built-in
/// test signal over an impaired network (issue 7).
struct DemoCommand: Command {
    static let duration = Option(
        "duration", "SECONDS", .number(in: 1...3600), help: "Length of the call (default: 10).")
    static let scenario = Option(
        "scenario", "NAME", .string, help: "Network scenario the call goes through (default: heavy jitter).")
    static let outputDirectory = Option(
        "output-dir", "DIR", .string, help: "Where the HTML quality report and the output WAV go (default: .).")

    let name = "demo"
    let summary = "Run a demonstration call through the whole stack and write its quality report."
    let discussion = """
        Needs no arguments and nothing to download: two sessions call each other over loopback \
        UDP through an impaired network with a built-in test signal, printing a quality line \
        each second, then a summary, and writing the HTML quality report and the received audio.
        """
    var arguments: [any ArgumentDeclaring] { [Self.duration, Self.scenario, Self.outputDirectory] }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        throw NotYetAvailable()
    }
}
