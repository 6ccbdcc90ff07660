/// One implementation of a case while it is being measured: its calibrated batch size and the
/// per-operation times of its runs.
struct Contender {
    /// `ours`, the in-process peer's name, or the program's `--version` line.
    let name: String
    /// Extra fields for its row.
    let fields: [BenchmarkRow.Field]
    /// Runs a batch of the given size and returns its duration in nanoseconds.
    private let timeBatch: (Int) throws -> UInt64
    /// Runs a batch untimed (for allocation counting), when the implementation is in process.
    private let runBatch: BatchOperation?
    /// Operations per batch, set by ``calibrate(_:)``.
    private(set) var iterations = 1
    /// Nanoseconds per operation, one per timed run.
    private(set) var samples: [Double] = []
    /// Set once the implementation has failed; it is then skipped.
    var hasFailed = false

    /// Prepares `implementation`: for a program, builds it and asks its version.
    init(_ implementation: Implementation, caseName: String) throws {
        self.fields = implementation.fields
        switch implementation.kind {
        case .inProcess(let name, let operation):
            self.name = name
            self.runBatch = operation
            self.timeBatch = { iterations in
                let start = ContinuousClock.now
                try operation(iterations)
                return Self.nanoseconds(ContinuousClock.now - start)
            }
        case .program(let program, let programCase, let arguments):
            self.name = try program.version()
            self.runBatch = nil
            self.timeBatch = { iterations in
                try program.timeBatch(caseName: programCase ?? caseName, iterations: iterations, arguments: arguments)
            }
        }
    }

    /// Finds how many operations fill a batch of about `options.batchNanoseconds`, growing the
    /// batch until it is long enough to time, then runs the warm-up batches.
    mutating func calibrate(_ options: BenchmarkOptions) throws {
        let target = Double(options.batchNanoseconds)
        var count = 1
        while true {
            let elapsed = Double(try timeBatch(count))
            if elapsed >= target / 4 || count >= Self.maximumIterations {
                let scaled = elapsed > 0 ? Double(count) * target / elapsed : Double(count)
                iterations = Int(min(max(scaled.rounded(), 1), Double(Self.maximumIterations)))
                break
            }
            let growth = elapsed > 0 ? min(target / elapsed, 100) : 100
            count = min(Int((Double(count) * growth).rounded(.up)), Self.maximumIterations)
        }
        for _ in 0..<options.warmUpBatches {
            _ = try timeBatch(iterations)
        }
    }

    /// Times one batch and records its per-operation time.
    mutating func timeOneRun() throws {
        let elapsed = try timeBatch(iterations)
        samples.append(Double(elapsed) / Double(iterations))
    }

    /// Heap allocations per operation over one batch, or `nil` for a program (its allocations
    /// happen in another process).
    func allocationsPerOperation() throws -> Double? {
        guard let runBatch else { return nil }
        let counted = try AllocationCounter.counting { try runBatch(iterations) }
        return Double(counted.allocations) / Double(iterations)
    }

    /// The largest batch the calibration will choose.
    private static let maximumIterations = 1 << 32

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(seconds, 0)) &* 1_000_000_000 &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
    }
}
