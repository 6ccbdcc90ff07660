/// Splits a command's arguments into flags, option values and positionals, checking each
/// against its declaration; the first mistake becomes a ``UsageError``.
///
/// Accepted syntax: `--flag`, `--option VALUE`, `--option=VALUE`, positionals anywhere, `--`
/// to end options (everything after it is positional), and `-` as a positional (standard
/// input). `--help` is handled by the caller before parsing.
enum ArgumentParser {
    /// Parses `arguments` against `declarations`.
    static func parse(
        _ arguments: [String],
        declarations: [ArgumentDeclaration]
    ) throws(UsageError) -> ParsedArguments {
        var named: [String: ArgumentDeclaration] = [:]
        for declaration in declarations {
            if case .positional = declaration.kind { continue }
            named[declaration.name] = declaration
        }
        var parsed = ParsedArguments()
        var positionals: [String] = []
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = split(argument)
            guard argument.hasPrefix("--"), let declaration = named[name] else {
                throw UsageError("unknown option '\(argument.prefix { $0 != "=" })'")
            }
            switch declaration.kind {
            case .flag:
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                parsed.flags.insert(name)
            case .option(let repeats):
                guard let value = inlineValue ?? remaining.first, inlineValue != nil || !isOption(value) else {
                    throw UsageError("--\(name) needs a value (\(declaration.valueSyntax))")
                }
                if inlineValue == nil { remaining.removeFirst() }
                if let error = declaration.validate(value) { throw error }
                guard repeats || parsed.values[name] == nil else {
                    throw UsageError("--\(name) given more than once")
                }
                parsed.values[name, default: []].append(value)
            case .positional:
                break
            }
        }
        try assign(positionals, to: declarations, in: &parsed)
        return parsed
    }

    /// Hands positionals out in declaration order; a variadic positional takes the rest.
    private static func assign(
        _ positionals: [String],
        to declarations: [ArgumentDeclaration],
        in parsed: inout ParsedArguments
    ) throws(UsageError) {
        var remaining = positionals[...]
        for declaration in declarations {
            guard case .positional(let arity) = declaration.kind else { continue }
            let taken = arity.isVariadic ? Array(remaining) : Array(remaining.prefix(1))
            remaining.removeFirst(taken.count)
            if taken.isEmpty && declaration.isRequired {
                throw UsageError("missing \(declaration.name)")
            }
            for value in taken {
                if let error = declaration.validate(value) { throw error }
            }
            parsed.values[declaration.name] = taken
        }
        if let extra = remaining.first {
            throw UsageError("unexpected argument '\(extra)'")
        }
    }

    /// `--name=value` → (`name`, `value`); `--name` → (`name`, nil).
    private static func split(_ argument: String) -> (name: String, value: String?) {
        let body = argument.drop { $0 == "-" }
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// Whether `text` looks like an option rather than a value (`--quick`, but not `-3`).
    private static func isOption(_ text: String) -> Bool {
        text.hasPrefix("--") && text.count > 2
    }
}
