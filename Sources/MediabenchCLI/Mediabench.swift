/// The `mediabench` command line: parses arguments and runs one subcommand.
public enum Mediabench {
    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        0
    }
}
