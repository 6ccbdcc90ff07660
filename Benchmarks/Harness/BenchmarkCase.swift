/// One operation measured side by side across implementations: ours and any peers.
///
/// Every implementation runs in the same invocation, alternating run by run (ours, peer, ours,
/// peer, …) so that drift in the machine's state affects all of them alike. Each peer's row
/// carries our median divided by its own (``BenchmarkRow/ratioOursToPeer``).
///
/// ```swift
/// context.measure(BenchmarkCase("sum-1k", countsAllocations: true, implementations: [
///     .ours { iterations in for _ in 0..<iterations { blackHole(sum(buffer)) } },
///     .program(PeerProgram("self-check")),
/// ]))
/// ```
public struct BenchmarkCase {
    /// The case's name, unique within its suite; also the CASE argument given to peer programs.
    public var name: String
    /// Whether to count heap allocations per operation (for in-process implementations).
    public var countsAllocations: Bool
    /// Extra fields set on every row of the case (a codec's `algorithmic_latency_ms`).
    public var fields: [BenchmarkRow.Field]
    /// The implementations compared; the first is ours and the others are peers.
    public var implementations: [Implementation]

    /// A case named `name` comparing `implementations`, ours first, whose rows carry `fields`.
    public init(
        _ name: String,
        countsAllocations: Bool = false,
        fields: KeyValuePairs<String, BenchmarkValue> = [:],
        implementations: [Implementation]
    ) {
        self.name = name
        self.countsAllocations = countsAllocations
        self.fields = fields.map { BenchmarkRow.Field(name: $0.key, value: $0.value) }
        self.implementations = implementations
    }
}

/// A batch of `iterations` operations run in this process. It does the whole loop itself, so
/// the harness adds no per-operation call; pass results to ``blackHole(_:)``.
public typealias BatchOperation = (_ iterations: Int) throws -> Void

/// One way to perform a case's operation: in this process, or in a peer C program.
public struct Implementation {
    /// Where the operation runs.
    enum Kind {
        /// A closure in this process, reported under `name`.
        case inProcess(name: String, operation: BatchOperation)
        /// A peer program, asked for `caseName` (the case's own when `nil`) with `arguments`.
        case program(PeerProgram, caseName: String?, arguments: [String])
    }

    /// Where the operation runs.
    let kind: Kind
    /// Extra fields set on this implementation's row, after the case's.
    private(set) var fields: [BenchmarkRow.Field] = []

    /// This implementation with the extra field `name` set on its row (a peer's knob setting).
    public func withField(_ name: String, _ value: BenchmarkValue) -> Implementation {
        var copy = self
        copy.fields.append(BenchmarkRow.Field(name: name, value: value))
        return copy
    }

    /// Our implementation, run in this process.
    public static func ours(_ operation: @escaping BatchOperation) -> Implementation {
        Implementation(kind: .inProcess(name: "ours", operation: operation))
    }

    /// A peer run in this process (a Swift closure, for example one calling a C library
    /// directly); `name` names the peer and its version, as it appears in reports.
    public static func peer(_ name: String, _ operation: @escaping BatchOperation) -> Implementation {
        Implementation(kind: .inProcess(name: name, operation: operation))
    }

    /// A peer C program built from `Benchmarks/peers/` and run as a subprocess following the
    /// peer program protocol (see ``PeerProgram``). It is asked for `caseName` (the case's own
    /// name when `nil`) with `arguments` after the iteration count. Its reported name is what
    /// it prints for `--version`.
    public static func program(
        _ program: PeerProgram,
        caseName: String? = nil,
        arguments: [String] = []
    ) -> Implementation {
        Implementation(kind: .program(program, caseName: caseName, arguments: arguments))
    }
}
