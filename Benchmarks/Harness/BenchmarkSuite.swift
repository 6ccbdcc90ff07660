/// A named group of benchmark cases, run by `mediabench bench NAME`.
///
/// The body measures cases with ``BenchmarkContext/measure(_:)`` and may record rows of its
/// own with ``BenchmarkContext/record(_:)``. Each suite lives in its own file in
/// `Benchmarks/Suites` and is listed once in `SuiteRegistry.all`.
public struct BenchmarkSuite: Sendable {
    /// The name used on the command line and in reports (`self-check`, `g711`, `jitter`).
    public let name: String
    /// One line saying what the suite measures, for `mediabench bench --help`.
    public let summary: String
    /// Measures the suite's cases into the context.
    public let body: @Sendable (BenchmarkContext) throws -> Void

    /// A suite that runs `body`; an error it throws is reported as a failure of the suite,
    /// after the rows it recorded before failing.
    public init(name: String, summary: String, body: @escaping @Sendable (BenchmarkContext) throws -> Void) {
        self.name = name
        self.summary = summary
        self.body = body
    }
}
