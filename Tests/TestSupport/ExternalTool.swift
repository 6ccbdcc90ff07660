import BenchmarkHarness
import Foundation

/// Runs an outside program (tshark, python3, cc) that a test uses as an independent oracle.
public enum ExternalTool {
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
    public static func run(_ arguments: [String]) throws -> Subprocess.Output {
        let output = try Subprocess.run(searchingPath: arguments)
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
