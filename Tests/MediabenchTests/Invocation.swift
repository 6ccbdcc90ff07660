import Synchronization

@testable import MediabenchCLI

/// Runs `mediabench` in process and captures what it writes.
struct Invocation {
    let status: Int32
    let standardOutput: String
    let standardError: String

    init(_ arguments: [String]) {
        let output = Mutex("")
        let error = Mutex("")
        let console = Console(
            write: { text in output.withLock { $0 += text } },
            writeError: { text in error.withLock { $0 += text } })
        status = Mediabench.run(arguments, console: console)
        standardOutput = output.withLock { $0 }
        standardError = error.withLock { $0 }
    }
}
