import BenchmarkHarness
import BenchmarkSuites

/// `mediabench bench [SUITE…] [--quick] [--format text|json] [--runs N] [--output FILE] [--trace FILE…] [--only-trace NAME…] [--audio SPEECH.wav…] [--profile softphone|server] [--calls N] [--jobs N]`:
/// runs benchmark suites side by side with their peers and prints the table or JSON.
struct BenchCommand: Command {
    static let suites = Positional(
        "SUITE", .choice(SuiteRegistry.all.map(\.name)), arity: .zeroOrMore,
        help: "Suites to run, in order (default: all of them).")
    static let quick = Flag("quick", help: "Fewer runs and smaller workloads, for a fast check.")
    static let format = Option.dataFormat
    static let runs = Option(
        "runs", "N", .positiveInteger,
        help: "Timed runs per implementation (default: \(BenchmarkOptions.standard.runs), "
            + "or \(BenchmarkOptions.quick.runs) with --quick).")
    static let output = Option(
        "output", "FILE", .string, help: "Write the table or JSON to FILE instead of standard output.")
    static let traces = Option(
        "trace", "FILE", .string, repeats: true, help: "A network trace for the jitter suite to replay too.")
    static let onlyTraces = Option(
        "only-trace", "NAME", .string, repeats: true,
        help: "Replay only this trace in the jitter suite (a scenario's or a trace file's name); repeat for more.")
    static let audio = Option(
        "audio", "SPEECH.wav", .string, repeats: true,
        help: "8 kHz mono speech the jitter suite plays through every buffer and scores (PESQ, R_conv); repeat for more.")

    static let profile = Option(
        "profile", "softphone|server", .choice(SessionBenchProfile.allCases.map(\.rawValue)),
        help: "The session suite's setup: softphone (default; echo cancel and denoise, a thread per call) "
            + "or server (no echo cancel or denoise, one I/O thread per core receiving and ticking its share of the calls).")

    static let calls = Option(
        "calls", "N", .positiveInteger,
        help: "The session suite runs N concurrent calls once (one step, for profiling or a re-check) "
            + "instead of searching for the most it carries.")

    static let jobs = Option(
        "jobs", "N", .positiveInteger,
        help: "Processes scoring the jitter suite's speech at once (PESQ; default: 1). Results do not depend on it.")

    let name = "bench"
    let summary = "Benchmark ours side by side with peer implementations."
    var discussion: String {
        """
        Each case runs ours and its peers alternately in one invocation, reports the median and \
        95th percentile over runs, the ratio ours/peer, and allocations per operation where \
        counted. Peer C programs are built from Benchmarks/peers into .build/peers.

        SUITES:

        """ + HelpText.table(SuiteRegistry.all.map { ($0.name, $0.summary) })
    }
    var arguments: [any ArgumentDeclaring] {
        [Self.suites, Self.quick, Self.format, Self.runs, Self.output, Self.traces, Self.onlyTraces, Self.audio, Self.profile, Self.calls, Self.jobs]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var options = arguments[Self.quick] ? BenchmarkOptions.quick : BenchmarkOptions.standard
        if let runs = arguments[Self.runs] {
            options.runs = runs
        }
        options.traceFiles = arguments.all(Self.traces)
        options.speechFiles = arguments.all(Self.audio)
        options.traceNames = arguments.all(Self.onlyTraces)
        options.profile = arguments[Self.profile]
        options.calls = arguments[Self.calls]
        options.jobs = arguments[Self.jobs] ?? 1
        let names = arguments.all(Self.suites)
        let selected = names.isEmpty ? SuiteRegistry.all : names.compactMap(SuiteRegistry.suite(named:))
        let runner = BenchmarkRunner(options: options) { suite in
            if console.showsProgress { console.writeError("mediabench bench: running \(suite.name)…\n") }
        }
        #if DEBUG
            console.writeError("mediabench bench: a debug build; for real figures use `swift run -c release mediabench bench`\n")
        #endif
        let report = runner.run(selected)
        let rendered = (arguments[Self.format] ?? .text) == .json ? report.jsonText : report.textTable
        try DataOutput.write(rendered, toFile: arguments[Self.output], console: console)
        for failure in report.failures {
            console.writeError("mediabench bench: \(failure)\n")
        }
        return report.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
