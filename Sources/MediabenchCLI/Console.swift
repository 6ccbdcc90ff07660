import Foundation

/// Where a command writes: standard output for data, standard error for messages.
/// Tests substitute closures that capture the text.
struct Console: Sendable {
    /// Writes `text` to standard output as it is (add the newline yourself).
    let write: @Sendable (String) -> Void
    /// Writes `text` to standard error as it is.
    let writeError: @Sendable (String) -> Void
    /// Whether standard error is a terminal, so progress messages are welcome there.
    let showsProgress: Bool

    /// A console writing through the given closures, without progress messages.
    init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        showsProgress: Bool = false
    ) {
        self.write = write
        self.writeError = writeError
        self.showsProgress = showsProgress
    }

    /// The process's standard output and standard error.
    static let standard = Console(
        write: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        showsProgress: isatty(STDERR_FILENO) != 0
    )
}
