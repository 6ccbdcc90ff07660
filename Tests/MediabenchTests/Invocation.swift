import Foundation
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

    /// Runs `mediabench` on a thread of its own and waits without holding a thread of the
    /// cooperative pool: for commands that block their calling thread while their work runs
    /// on the pool (`phone`), so that several may run at once.
    static func onOwnThread(_ arguments: [String]) async -> Invocation {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Invocation(arguments)) }.start()
        }
    }
}
