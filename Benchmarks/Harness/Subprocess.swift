import Foundation

/// Runs a program to completion and collects what it wrote (peer programs, and interpreters
/// running peer scripts).
public enum Subprocess {
    /// The outcome of one run.
    public struct Output: Sendable {
        /// Exit status (or the terminating signal's number).
        public let status: Int32
        /// Standard output, decoded as UTF-8.
        public let standardOutput: String
        /// Standard error, decoded as UTF-8.
        public let standardError: String
    }

    /// Runs `executable` with `arguments` and waits for it; throws only when it cannot start.
    public static func run(_ executable: URL, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain standard error on another thread so a chatty child never blocks on a full pipe.
        let errorBox = DrainedData()
        let errorDrained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorBox.data = errorPipe.fileHandleForReading.readDataToEndOfFile()
            errorDrained.signal()
        }
        let outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
        errorDrained.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorBox.data, as: UTF8.self)
        )
    }

    /// Runs a program found on `PATH` through `/usr/bin/env`.
    public static func run(searchingPath arguments: [String]) throws -> Output {
        try run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
    }
}

/// Carries drained bytes from the reading thread; a semaphore orders the two accesses.
private final class DrainedData: @unchecked Sendable {
    var data = Data()
}
