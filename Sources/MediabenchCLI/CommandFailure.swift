/// A command could not do its work (a file it cannot read or write): exit status 1, with this
/// message after the command's name.
struct CommandFailure: Error, Equatable, CustomStringConvertible {
    /// What failed and why, naming the file or value involved.
    let message: String

    /// A failure saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// The message.
    var description: String { message }
}
