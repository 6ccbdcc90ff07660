/// A value in a benchmark row's extra fields: a number, a string, or a list of them.
///
/// Rows carry these beside the standard keys, for figures a suite reports that are not times
/// (the jitter-buffer suite's `p95_delay_ms` or `recovery_ms`, for example). Literals convert
/// directly: `row.setField("trace", "spikes")`, `row.setField("recovery_ms", [412.5, 380.0])`.
public enum BenchmarkValue: Sendable, Equatable {
    /// A whole number.
    case integer(Int)
    /// A decimal number; non-finite values are written as JSON `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// A list of values.
    case list([BenchmarkValue])

    /// The value as JSON text.
    public var jsonText: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): value.isFinite ? String(value) : "null"
        case .string(let value): JSONText.quoted(value)
        case .list(let values): "[" + values.map(\.jsonText).joined(separator: ", ") + "]"
        }
    }

    /// The value as a table cell: numbers to about four significant digits.
    public var displayText: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): NumberFormatting.significant(value)
        case .string(let value): value
        case .list(let values): values.map(\.displayText).joined(separator: ",")
        }
    }
}

extension BenchmarkValue: ExpressibleByIntegerLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension BenchmarkValue: ExpressibleByFloatLiteral {
    /// A decimal literal.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension BenchmarkValue: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension BenchmarkValue: ExpressibleByArrayLiteral {
    /// A list literal.
    public init(arrayLiteral elements: BenchmarkValue...) { self = .list(elements) }
}
