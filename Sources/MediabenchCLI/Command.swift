/// One `mediabench` subcommand.
///
/// To add one: write a type conforming to `Command` in `Commands/`, declare its arguments as
/// static `Flag`, `Option` and `Positional` values, list them in ``arguments``, read them in
/// ``run(_:console:)`` through ``ParsedArguments``, and add the command to
/// ``Mediabench/commands``. Help, usage errors and exit statuses come from the dispatcher.
protocol Command: Sendable {
    /// The subcommand's name (`bench`).
    var name: String { get }
    /// One line saying what it does, for `mediabench --help`.
    var summary: String { get }
    /// Further paragraphs for `mediabench NAME --help`; empty when there is nothing to add.
    var discussion: String { get }
    /// Every flag, option and positional it accepts, in help order.
    var arguments: [any ArgumentDeclaring] { get }

    /// Does the work and returns the exit status. Throw ``UsageError`` for a bad combination
    /// of arguments (exit status 2); any other error is reported as a failure (exit status 1).
    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}

extension Command {
    /// No further paragraphs.
    var discussion: String { "" }
}
