/// A mistake on the command line: reported as one line on standard error, exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, naming the flag or value (`unknown option '--fast'`).
    let message: String

    /// An error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message.
    var description: String { message }
}
