/// The `mediabench` command line: parses arguments and runs one subcommand.
///
/// Exit statuses: 0 success, 1 failure while working, 2 a usage error (one line on standard
/// error naming the bad flag or value).
public enum Mediabench {
    /// The tool's version, printed by `mediabench --version`.
    public static let version = "0.1.0"

    /// Every subcommand, in the order `mediabench --help` lists them.
    static let commands: [any Command] = [
        DemoCommand(),
        AnalyzeCommand(),
        SimulateCommand(),
        TranscodeCommand(),
        EModelCommand(),
        CallCommand(),
        WebRTCCommand(),
        PhoneCommand(),
        BenchCommand(),
    ]

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        run(arguments, console: .standard)
    }

    /// Runs the tool, writing through `console`.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            console.writeError("mediabench: missing command (see 'mediabench --help')\n")
            return ExitStatus.usage
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, first == "help" {
                return run([arguments[1], "--help"], console: console)
            }
            console.write(overview)
            return ExitStatus.success
        case "--version":
            console.write("mediabench \(version)\n")
            return ExitStatus.success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                let kind = first.hasPrefix("-") ? "option" : "command"
                console.writeError("mediabench: unknown \(kind) '\(first)' (see 'mediabench --help')\n")
                return ExitStatus.usage
            }
            return execute(command, Array(arguments.dropFirst()), console: console)
        }
    }

    /// Parses `arguments` for `command` and runs it, turning errors into messages and statuses.
    static func execute(_ command: any Command, _ arguments: [String], console: Console) -> Int32 {
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            console.write(HelpText.page(for: command))
            return ExitStatus.success
        }
        do {
            let parsed = try ArgumentParser.parse(arguments, declarations: command.arguments.map(\.declaration))
            return try command.run(parsed, console: console)
        } catch let error as UsageError {
            console.writeError("mediabench \(command.name): \(error.message)\n")
            return ExitStatus.usage
        } catch {
            console.writeError("mediabench \(command.name): \(error)\n")
            return ExitStatus.failure
        }
    }

    /// The top-level help page.
    static var overview: String {
        """
        mediabench \(version): an RTP media engine's bench, analyser and softphone test tool

        USAGE: mediabench COMMAND [ARGUMENTS…]
               mediabench --version

        COMMANDS:

        """
            + HelpText.table(commands.map { ($0.name, $0.summary) })
            + "\nRun 'mediabench COMMAND --help' for a command's arguments.\n"
    }
}

/// The process exit statuses of `mediabench`.
enum ExitStatus {
    /// The command did what was asked.
    static let success: Int32 = 0
    /// The command failed while working (an unreadable file, a failed benchmark case).
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
}
