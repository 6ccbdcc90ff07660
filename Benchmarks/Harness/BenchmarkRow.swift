/// One line of a benchmark report: one implementation of one case, measured or scored.
///
/// Timing rows come from ``BenchmarkContext/measure(_:)``; a suite that reports other figures
/// (quality scores, delays) builds rows itself and hands them to ``BenchmarkContext/record(_:)``.
/// In JSON every row has the keys `suite`, `case`, `implementation`, `unit`, `median`, `p95`
/// and `runs` (`null` when a figure does not apply), then `allocations_per_op` and
/// `ratio_ours_to_peer` when present, then the extra fields in the order they were set.
public struct BenchmarkRow: Sendable, Equatable {
    /// The suite's name, as given on the command line.
    public var suite: String
    /// The case's name within its suite.
    public var caseName: String
    /// `ours`, or the peer's name and version (`speexdsp 1.2.1`).
    public var implementation: String
    /// The unit of ``median`` and ``p95``: `ns/op` for timings.
    public var unit: String
    /// The median over runs, in ``unit``.
    public var median: Double?
    /// The 95th percentile over runs (nearest rank), in ``unit``.
    public var p95: Double?
    /// How many runs the median and p95 summarise.
    public var runs: Int?
    /// Heap allocations per operation, when the case counts them.
    public var allocationsPerOperation: Double?
    /// On a peer's row: our median divided by this peer's median, from the same invocation
    /// (below 1 means ours takes less of ``unit``).
    public var ratioOursToPeer: Double?
    /// Further named figures, in the order they were set; see ``setField(_:_:)``.
    public private(set) var extraFields: [Field]

    /// A named figure beyond the standard keys.
    public struct Field: Sendable, Equatable {
        /// The JSON key, in snake_case with the unit in the name (`p95_delay_ms`).
        public var name: String
        /// The figure.
        public var value: BenchmarkValue

        /// The field `name` holding `value`.
        public init(name: String, value: BenchmarkValue) {
            self.name = name
            self.value = value
        }
    }

    /// A row with the given standard figures and no extra fields.
    public init(
        suite: String,
        caseName: String,
        implementation: String,
        unit: String,
        median: Double? = nil,
        p95: Double? = nil,
        runs: Int? = nil,
        allocationsPerOperation: Double? = nil
    ) {
        self.suite = suite
        self.caseName = caseName
        self.implementation = implementation
        self.unit = unit
        self.median = median
        self.p95 = p95
        self.runs = runs
        self.allocationsPerOperation = allocationsPerOperation
        self.extraFields = []
    }

    /// Sets the extra field `name` to `value`, replacing an earlier value of the same name.
    public mutating func setField(_ name: String, _ value: BenchmarkValue) {
        if let index = extraFields.firstIndex(where: { $0.name == name }) {
            extraFields[index].value = value
        } else {
            extraFields.append(Field(name: name, value: value))
        }
    }

    /// The value of the extra field `name`, if set.
    public func field(_ name: String) -> BenchmarkValue? {
        extraFields.first { $0.name == name }?.value
    }

    /// The row as one JSON object.
    public var jsonText: String {
        func optional(_ value: Double?) -> String {
            value.map { BenchmarkValue.number($0).jsonText } ?? "null"
        }
        var members: [(key: String, value: String)] = [
            ("suite", JSONText.quoted(suite)),
            ("case", JSONText.quoted(caseName)),
            ("implementation", JSONText.quoted(implementation)),
            ("unit", JSONText.quoted(unit)),
            ("median", optional(median)),
            ("p95", optional(p95)),
            ("runs", runs.map(String.init) ?? "null"),
        ]
        if let allocationsPerOperation {
            members.append(("allocations_per_op", optional(allocationsPerOperation)))
        }
        if let ratioOursToPeer {
            members.append(("ratio_ours_to_peer", optional(ratioOursToPeer)))
        }
        members += extraFields.map { ($0.name, $0.value.jsonText) }
        return JSONText.object(members)
    }
}
