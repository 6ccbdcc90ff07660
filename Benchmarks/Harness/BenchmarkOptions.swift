/// How long and how often the harness measures.
public struct BenchmarkOptions: Sendable {
    /// Timed runs per implementation; the median and p95 summarise them.
    public var runs: Int
    /// The duration one timed batch aims for; the iteration count is calibrated to it.
    public var batchNanoseconds: UInt64
    /// Untimed batches run before the timed runs, after calibration.
    public var warmUpBatches: Int
    /// Whether this is a quick check: suites may also shrink their workloads (fewer traces,
    /// shorter inputs) when it is set.
    public var isQuick: Bool
    /// Network trace files given with `--trace`, which the jitter-buffer suite replays beside
    /// its named scenarios.
    public var traceFiles: [String]
    /// 8 kHz mono speech WAVs given with `--audio`, which the jitter-buffer suite plays through
    /// every buffer and scores (PESQ, R_conv); none skips that (slow) part.
    public var speechFiles: [String]
    /// The only traces the jitter-buffer suite replays, by name (a scenario's, or a trace
    /// file's), given with `--only-trace`; empty for every trace.
    public var traceNames: [String]
    /// The setup to measure, given with `--profile`, for suites that have several (`session`:
    /// `softphone` or `server`); nil for each suite's default.
    public var profile: String?
    /// A number of concurrent calls given with `--calls`, for suites that search a capacity
    /// (`session`): that one step is run and reported instead of the search; nil searches.
    public var calls: Int?
    /// How many processes may score at once, given with `--jobs` (the jitter-buffer suite's
    /// PESQ scoring of its speech); 1 scores one playout at a time.
    public var jobs: Int

    /// Explicit settings.
    public init(
        runs: Int,
        batchNanoseconds: UInt64 = 10_000_000,
        warmUpBatches: Int = 1,
        isQuick: Bool = false,
        traceFiles: [String] = [],
        speechFiles: [String] = [],
        traceNames: [String] = [],
        profile: String? = nil,
        calls: Int? = nil,
        jobs: Int = 1
    ) {
        self.runs = max(runs, 1)
        self.batchNanoseconds = max(batchNanoseconds, 1)
        self.warmUpBatches = max(warmUpBatches, 0)
        self.isQuick = isQuick
        self.traceFiles = traceFiles
        self.speechFiles = speechFiles
        self.traceNames = traceNames
        self.profile = profile
        self.calls = calls.map { max($0, 1) }
        self.jobs = max(jobs, 1)
    }

    /// The default: 21 runs of ~10 ms batches after one warm-up batch.
    public static var standard: BenchmarkOptions { BenchmarkOptions(runs: 21) }

    /// A fast check: 5 runs of ~10 ms batches.
    public static var quick: BenchmarkOptions { BenchmarkOptions(runs: 5, isQuick: true) }
}
