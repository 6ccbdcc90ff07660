/// How an argument's text becomes a typed value, and how to say what was expected when it
/// cannot: `--runs expects a positive integer, got 'x'`.
struct ArgumentType<Value>: Sendable {
    /// What a valid value looks like, completing "expects …" (`a positive integer`).
    let expectation: String
    /// The accepted values, shown in usage lines in place of the placeholder (`text|json`),
    /// when there are few.
    let choices: [String]?
    /// The value for `text`, or `nil` when `text` is not valid.
    let convert: @Sendable (String) -> Value?

    /// A type described by `expectation` that converts with `convert`.
    init(expectation: String, choices: [String]? = nil, convert: @escaping @Sendable (String) -> Value?) {
        self.expectation = expectation
        self.choices = choices
        self.convert = convert
    }
}

extension ArgumentType where Value == String {
    /// Any text, taken as it is.
    static var string: ArgumentType<String> {
        ArgumentType(expectation: "a value") { $0 }
    }

    /// One of `choices`, exactly as written.
    static func choice(_ choices: [String]) -> ArgumentType<String> {
        ArgumentType(expectation: alternatives(choices), choices: choices) {
            choices.contains($0) ? $0 : nil
        }
    }
}

extension ArgumentType where Value == Int {
    /// A whole number of at least 1.
    static var positiveInteger: ArgumentType<Int> {
        ArgumentType(expectation: "a positive integer") { text in
            Int(text).flatMap { $0 >= 1 ? $0 : nil }
        }
    }

    /// A whole number within `range`.
    static func integer(in range: ClosedRange<Int>) -> ArgumentType<Int> {
        ArgumentType(expectation: "an integer from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension ArgumentType where Value == UInt64 {
    /// A whole number from 0 to 2⁶⁴ − 1 (seeds).
    static var unsignedInteger: ArgumentType<UInt64> {
        ArgumentType(expectation: "a non-negative integer") { UInt64($0) }
    }
}

extension ArgumentType where Value == Double {
    /// A finite decimal number within `range`.
    static func number(in range: ClosedRange<Double>) -> ArgumentType<Double> {
        let expectation = "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound))"
        return ArgumentType(expectation: expectation) { text in
            Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
    }

    /// A finite decimal number of at least 0.
    static var nonNegativeNumber: ArgumentType<Double> {
        ArgumentType(expectation: "a number of at least 0") { text in
            Double(text).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
    }

    /// `value` without a needless `.0`.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension ArgumentType where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of an enumeration's raw values (`enum DataFormat: String, CaseIterable`).
    static var oneOf: ArgumentType<Value> {
        let names = Value.allCases.map(\.rawValue)
        return ArgumentType(expectation: alternatives(names), choices: names) {
            Value(rawValue: $0)
        }
    }
}

/// `a`, `a or b`, `a, b or c`: the choices as a reader expects them listed.
private func alternatives(_ choices: [String]) -> String {
    guard let last = choices.last, choices.count > 1 else { return choices.first ?? "nothing" }
    return choices.dropLast().joined(separator: ", ") + " or " + last
}
