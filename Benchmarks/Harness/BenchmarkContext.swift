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
        var contenders: [Contender] = []
        for implementation in benchmarkCase.implementations {
            do {
                contenders.append(try Contender(implementation, caseName: benchmarkCase.name))
            } catch {
                recordFailure(benchmarkCase.name, implementation: implementation.displayName, error)
                guard !contenders.isEmpty else { return [] }  // ours failed: nothing to compare with
            }
        }
        // Runs one step of contender `index` unless it already failed, recording a failure;
        // answers whether ours is still standing (without ours there is nothing to compare).
        let proceed = { (index: Int, step: (inout Contender) throws -> Void) -> Bool in
            if !contenders[index].hasFailed {
                do {
                    try step(&contenders[index])
                } catch {
                    self.recordFailure(benchmarkCase.name, implementation: contenders[index].name, error)
                    contenders[index].hasFailed = true
                }
            }
            return !contenders[0].hasFailed
        }
        for index in contenders.indices {
            guard proceed(index, { try $0.calibrate(options) }) else { return [] }
        }
        for _ in 0..<options.runs {
            for index in contenders.indices {
                guard proceed(index, { try $0.timeOneRun() }) else { return [] }
            }
        }
        let ourMedian = Statistics.median(contenders[0].samples)
        var measured: [BenchmarkRow] = []
        for (position, contender) in contenders.enumerated() where !contender.hasFailed {
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
            measured.append(row)
        }
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
