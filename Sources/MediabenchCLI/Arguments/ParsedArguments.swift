/// The arguments of one command after parsing, read through the same declarations that
/// described them: `parsed[Self.quick]`, `parsed[Self.runs]`, `parsed.all(Self.suites)`.
///
/// Every value was validated while parsing, so reading converts without failing.
struct ParsedArguments {
    /// The flags given, by name.
    var flags: Set<String> = []
    /// The values of options and positionals, by name, in the order given.
    var values: [String: [String]] = [:]

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool {
        flags.contains(flag.name)
    }

    /// The option's value, or `nil` when it was not given (the last value for a repeated one).
    subscript<Value>(option: Option<Value>) -> Value? {
        values[option.name]?.last.flatMap(option.type.convert)
    }

    /// The positional's value, or `nil` when it was not given.
    subscript<Value>(positional: Positional<Value>) -> Value? {
        values[positional.placeholder]?.first.flatMap(positional.type.convert)
    }

    /// Every value of a repeated option, in the order given.
    func all<Value>(_ option: Option<Value>) -> [Value] {
        (values[option.name] ?? []).compactMap(option.type.convert)
    }

    /// Every value of a variadic positional, in the order given.
    func all<Value>(_ positional: Positional<Value>) -> [Value] {
        (values[positional.placeholder] ?? []).compactMap(positional.type.convert)
    }

    /// The option's value, or a usage error naming it when it was not given.
    func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = self[option] else {
            throw UsageError("missing --\(option.name) \(option.placeholder)")
        }
        return value
    }
}
