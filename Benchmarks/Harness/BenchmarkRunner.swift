/// Runs suites one after another and gathers their rows and failures into one report.
public struct BenchmarkRunner: Sendable {
    /// The measuring settings given to every suite.
    public let options: BenchmarkOptions
    /// Called with each suite's name before it runs (for progress on a terminal).
    public let willRun: @Sendable (BenchmarkSuite) -> Void

    /// A runner with `options` that reports progress through `willRun`.
    public init(options: BenchmarkOptions, willRun: @escaping @Sendable (BenchmarkSuite) -> Void = { _ in }) {
        self.options = options
        self.willRun = willRun
    }

    /// Runs `suites` in order; a suite that throws is recorded as a failure and the next runs.
    public func run(_ suites: [BenchmarkSuite]) -> BenchmarkReport {
        var report = BenchmarkReport()
        for suite in suites {
            willRun(suite)
            let context = BenchmarkContext(suite: suite.name, options: options)
            do {
                try suite.body(context)
            } catch {
                context.recordFailure(nil, error)
            }
            report.rows += context.rows
            report.failures += context.failures
        }
        return report
    }
}
