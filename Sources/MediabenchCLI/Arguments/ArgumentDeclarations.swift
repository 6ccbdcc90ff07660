/// What the parser and the help text need to know of one declared argument, whatever its
/// value type.
struct ArgumentDeclaration: Sendable {
    /// How the argument appears on the command line.
    enum Kind: Sendable, Equatable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`; `repeats` allows it more than once.
        case option(repeats: Bool)
        /// A bare argument, matched by position.
        case positional(PositionalArity)
    }

    /// The long name without dashes (`runs`), or the placeholder of a positional (`SUITE`).
    let name: String
    /// The kind of argument.
    let kind: Kind
    /// The value's placeholder in usage lines (`N`, `FILE`, or `text|json` for few choices).
    let valueSyntax: String
    /// One line of help.
    let help: String
    /// Whether the command cannot run without it (shown in usage; enforced when it is read).
    let isRequired: Bool
    /// Checks a value's text, producing the one-line error for a bad one.
    let validate: @Sendable (String) -> UsageError?

    /// How the argument is written in messages: `--runs` or `SUITE`.
    var displayName: String {
        if case .positional = kind { return name }
        return "--" + name
    }

    /// How the argument is shown in help: `--quick`, `--runs N`, `SUITE…`.
    var label: String {
        switch kind {
        case .flag: displayName
        case .option: "\(displayName) \(valueSyntax)"
        case .positional(let arity): name + (arity.isVariadic ? "…" : "")
        }
    }

    /// How the argument appears in a usage line: `[--runs N]`, `--input FILE`, `[SUITE…]`,
    /// `[--trace FILE…]` for a repeated option.
    var usageSyntax: String {
        let core = kind == .option(repeats: true) ? label + "…" : label
        return isRequired ? core : "[\(core)]"
    }
}

/// Anything a command lists among its arguments.
protocol ArgumentDeclaring: Sendable {
    /// The type-erased description the parser works from.
    var declaration: ArgumentDeclaration { get }
}

/// Builds the validating closure and syntax shared by options and positionals.
private func describing<Value>(
    _ displayName: String,
    _ type: ArgumentType<Value>,
    placeholder: String
) -> (valueSyntax: String, validate: @Sendable (String) -> UsageError?) {
    let syntax = type.choices.flatMap { $0.count <= 6 ? $0.joined(separator: "|") : nil } ?? placeholder
    return (
        syntax,
        { text in
            type.convert(text) == nil ? UsageError("\(displayName) expects \(type.expectation), got '\(text)'") : nil
        }
    )
}

/// A switch: `--quick`. Reads as `true` when given.
struct Flag: ArgumentDeclaring {
    /// The long name without dashes.
    let name: String
    /// One line of help.
    let help: String

    /// A flag `--name`.
    init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }

    var declaration: ArgumentDeclaration {
        ArgumentDeclaration(
            name: name, kind: .flag, valueSyntax: "", help: help, isRequired: false, validate: { _ in nil })
    }
}

/// An option with a value: `--runs N`, `--runs=N`; when it repeats, every value is kept
/// in order (`--trace A --trace B`).
struct Option<Value>: ArgumentDeclaring {
    /// The long name without dashes.
    let name: String
    /// The value's placeholder in help (`N`, `FILE`).
    let placeholder: String
    /// How the value's text is converted and checked.
    let type: ArgumentType<Value>
    /// Whether it may be given more than once.
    let repeats: Bool
    /// Whether the command needs it; read it with ``ParsedArguments/required(_:)``.
    let isRequired: Bool
    /// One line of help, including the default when there is one.
    let help: String

    /// An option `--name PLACEHOLDER` of the given type.
    init(
        _ name: String,
        _ placeholder: String,
        _ type: ArgumentType<Value>,
        repeats: Bool = false,
        required: Bool = false,
        help: String
    ) {
        self.name = name
        self.placeholder = placeholder
        self.type = type
        self.repeats = repeats
        self.isRequired = required
        self.help = help
    }

    var declaration: ArgumentDeclaration {
        let (syntax, validate) = describing("--" + name, type, placeholder: placeholder)
        return ArgumentDeclaration(
            name: name, kind: .option(repeats: repeats), valueSyntax: syntax, help: help,
            isRequired: isRequired, validate: validate)
    }
}

/// A bare argument matched by position: `FILE`, `SUITE…`.
struct Positional<Value>: ArgumentDeclaring {
    /// The placeholder (`FILE`), used in help and messages.
    let placeholder: String
    /// How the values' text is converted and checked.
    let type: ArgumentType<Value>
    /// How many values it takes.
    let arity: PositionalArity
    /// One line of help.
    let help: String

    /// A positional `PLACEHOLDER` of the given type and arity.
    init(_ placeholder: String, _ type: ArgumentType<Value>, arity: PositionalArity = .one, help: String) {
        self.placeholder = placeholder
        self.type = type
        self.arity = arity
        self.help = help
    }

    var declaration: ArgumentDeclaration {
        let (syntax, validate) = describing(placeholder, type, placeholder: placeholder)
        return ArgumentDeclaration(
            name: placeholder, kind: .positional(arity), valueSyntax: syntax, help: help,
            isRequired: arity == .one || arity == .oneOrMore, validate: validate)
    }
}

/// How many values a positional takes; only the last positional may take more than one.
enum PositionalArity: Sendable, Equatable {
    /// Exactly one.
    case one
    /// Zero or one.
    case optional
    /// Any number, possibly none.
    case zeroOrMore
    /// At least one.
    case oneOrMore

    /// Whether it takes every remaining value.
    var isVariadic: Bool { self == .zeroOrMore || self == .oneOrMore }
}
