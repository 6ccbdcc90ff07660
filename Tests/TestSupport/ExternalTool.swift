import Foundation

/// Runs an outside program (tshark, python3, cc) that a test uses as an independent oracle.
public enum ExternalTool {
    /// The result of one run.
    public struct Output: Sendable {
        /// Standard output, decoded as UTF-8.
        public let standardOutput: String
        /// Standard error, decoded as UTF-8.
        public let standardError: String
        /// The exit status.
        public let status: Int32
    }

    /// A failed run: the command, its status and what it wrote to standard error.
    public struct Failure: Error, CustomStringConvertible {
        /// The command line that failed.
        public let command: [String]
        /// Its exit status.
        public let status: Int32
        /// Its standard error.
        public let standardError: String

        /// A one-paragraph account of the failure.
        public var description: String {
            "`\(command.joined(separator: " "))` exited with \(status): \(standardError)"
        }
    }

    /// Runs `arguments` (the first is looked up on `PATH`) and returns its output, throwing
    /// ``Failure`` when it exits with a non-zero status.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
        }
        try stdin.fileHandleForWriting.close()
        // Drain standard error on another thread so a chatty child never blocks on a full pipe.
        let errorBox = DataBox()
        let errorDrained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorDrained.signal()
        }
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        errorDrained.wait()
        let errData = errorBox.data
        process.waitUntilExit()
        let output = Output(
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus
        )
        guard output.status == 0 else {
            throw Failure(command: arguments, status: output.status, standardError: output.standardError)
        }
        return output
    }

    /// Whether `name` is found on `PATH`.
    public static func isAvailable(_ name: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(name)"])) != nil
    }
}

/// Carries the drained standard error from the reading thread; the semaphore orders the accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
