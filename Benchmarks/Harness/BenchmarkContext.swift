/// What a suite's body measures into: it runs cases and collects rows and failures.
///
/// One context serves one suite run on one thread.
public final class BenchmarkContext {
    /// The suite being run.
    public let suite: String
    /// The measuring settings for this invocation.
    public let options: BenchmarkOptions
    /// The rows recorded so far, in order.
    public private(set) var rows: [BenchmarkRow] = []
    /// The failures recorded so far, in order.
    public private(set) var failures: [BenchmarkFailure] = []

    /// A context for running `suite` with `options`.
    public init(suite: String, options: BenchmarkOptions) {
        self.suite = suite
        self.options = options
    }

    /// Measures every implementation of `benchmarkCase` side by side and records one row each.
    ///
    /// Each implementation is calibrated so that one batch takes about
    /// ``BenchmarkOptions/batchNanoseconds`` and warmed up; then the timed runs alternate
    /// between implementations. A peer that fails to build or run is recorded as a failure and
    /// dropped from the case; if ours fails, the case has no rows. Returns the rows recorded.
    @discardableResult
    public func measure(_ benchmarkCase: BenchmarkCase) -> [BenchmarkRow] {
        var contenders = prepareContenders(benchmarkCase)
        guard !contenders.isEmpty, advance(&contenders, benchmarkCase.name, { try $0.calibrate(options) }) else {
            return []
        }
        for _ in 0..<options.runs {
            guard advance(&contenders, benchmarkCase.name, { try $0.timeOneRun() }) else { return [] }
        }
        let measured = makeRows(benchmarkCase, contenders)
        rows += measured
        return measured
    }

    /// Records a row the suite computed itself (quality figures, delays, or timings measured
    /// some other way).
    public func record(_ row: BenchmarkRow) {
        rows.append(row)
    }

    /// Records that `caseName` (or, when `nil`, the suite) could not be measured.
    public func recordFailure(_ caseName: String?, implementation: String? = nil, _ error: any Error) {
        failures.append(
            BenchmarkFailure(suite: suite, caseName: caseName, implementation: implementation, message: "\(error)"))
    }

    /// One contender per implementation that could be prepared; none when ours could not be
    /// (without ours there is nothing to compare with).
    private func prepareContenders(_ benchmarkCase: BenchmarkCase) -> [Contender] {
        var contenders: [Contender] = []
        for implementation in benchmarkCase.implementations {
            do {
                contenders.append(try Contender(implementation, caseName: benchmarkCase.name))
            } catch {
                recordFailure(benchmarkCase.name, implementation: implementation.displayName, error)
                if contenders.isEmpty { return [] }
            }
        }
        return contenders
    }

    /// Runs `step` on every contender that has not failed, in order, recording each new
    /// failure; answers whether ours (the first) is still standing.
    private func advance(
        _ contenders: inout [Contender],
        _ caseName: String,
        _ step: (inout Contender) throws -> Void
    ) -> Bool {
        for index in contenders.indices where !contenders[index].hasFailed {
            do {
                try step(&contenders[index])
            } catch {
                recordFailure(caseName, implementation: contenders[index].name, error)
                contenders[index].hasFailed = true
                if index == 0 { return false }
            }
        }
        return true
    }

    /// The rows of the contenders that did not fail, with ratios, allocations and fields.
    private func makeRows(_ benchmarkCase: BenchmarkCase, _ contenders: [Contender]) -> [BenchmarkRow] {
        let ourMedian = Statistics.median(contenders[0].samples)
        return contenders.enumerated().filter { !$0.element.hasFailed }.map { position, contender in
            var row = BenchmarkRow(
                suite: suite,
                caseName: benchmarkCase.name,
                implementation: contender.name,
                unit: "ns/op",
                median: Statistics.median(contender.samples),
                p95: Statistics.percentile(95, of: contender.samples),
                runs: contender.samples.count
            )
            if benchmarkCase.countsAllocations {
                do {
                    row.allocationsPerOperation = try contender.allocationsPerOperation()
                } catch {
                    recordFailure(benchmarkCase.name, implementation: contender.name, error)
                }
            }
            if position > 0, let ourMedian, let theirMedian = row.median, theirMedian > 0 {
                row.ratioOursToPeer = ourMedian / theirMedian
            }
            for field in benchmarkCase.fields + contender.fields {
                row.setField(field.name, field.value)
            }
            return row
        }
    }
}

extension Implementation {
    /// The name shown before the implementation has run (a program's own version comes later).
    var displayName: String {
        switch kind {
        case .inProcess(let name, _): name
        case .program(let program, _, _): program.name
        }
    }
}
