/// The outcome of a bench invocation: the measured rows and what could not be measured.
public struct BenchmarkReport: Sendable, Equatable {
    /// Every row, suite by suite, in the order recorded.
    public var rows: [BenchmarkRow]
    /// Every failure, in the order they happened.
    public var failures: [BenchmarkFailure]

    /// A report of `rows` and `failures`.
    public init(rows: [BenchmarkRow] = [], failures: [BenchmarkFailure] = []) {
        self.rows = rows
        self.failures = failures
    }

    /// The rows as a JSON list, one object per line (see ``BenchmarkRow/jsonText``).
    /// Failures are not part of it.
    public var jsonText: String {
        guard !rows.isEmpty else { return "[]\n" }
        return "[\n" + rows.map { "  " + $0.jsonText }.joined(separator: ",\n") + "\n]\n"
    }

    /// The rows as an aligned text table; times are scaled to ns, µs, ms or s per operation.
    /// Extra fields follow in a last column as `name=value`.
    public var textTable: String {
        TextTable.render(rows)
    }
}
