import BenchmarkHarness
import Foundation

/// Runs an outside program (tshark, python3, cc) that a test uses as an independent oracle.
///
/// A missing oracle is a test failure, never a skip: a program that is not on `PATH`, or a
/// Python module a script cannot import, throws ``Missing`` naming the package that provides it
/// and the command that installs every oracle (`scripts/install-deps.sh --test`).
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

    /// An oracle that is not installed: the program or Python module, and the package to install.
    public struct Missing: Error, CustomStringConvertible {
        /// The program or Python module that was not found.
        public let name: String
        /// The Debian package (`apt`) or PyPI distribution (`pip`) that provides it.
        public let package: String

        /// What is missing and how to install it.
        public var description: String {
            "test oracle '\(name)' is missing: install the package \(package) "
                + "(scripts/install-deps.sh --test installs every oracle)"
        }
    }

    /// The Debian package of each program the tests run, where it differs from the program's name.
    private static let debianPackages: [String: String] = [
        "soxi": "sox", "cc": "gcc",
    ]

    /// The PyPI distribution of each Python module the test scripts import, where it differs.
    private static let pythonDistributions: [String: String] = ["pjsua2": "pjsua2-python"]

    /// Runs `arguments` (the first is looked up on `PATH`) and returns its output, throwing
    /// ``Missing`` when the program or a Python module it imports is not installed, and
    /// ``Failure`` when it exits with another non-zero status.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> Subprocess.Output {
        let output = try Subprocess.run(searchingPath: arguments)
        guard output.status == 0 else {
            if let missing = missing(arguments, output) { throw missing }
            throw Failure(command: arguments, status: output.status, standardError: output.standardError)
        }
        return output
    }

    /// Throws ``Missing`` when `program` is not on `PATH` (for a peer a test starts itself).
    public static func require(_ program: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        if !found { throw Missing(name: program, package: "apt " + (debianPackages[program] ?? program)) }
    }

    /// What is missing when a run failed: `env` exits 127 for a program not on `PATH`, and
    /// Python names a module it could not import.
    private static func missing(_ arguments: [String], _ output: Subprocess.Output) -> Missing? {
        let program = arguments.first ?? ""
        if output.status == 127, output.standardError.contains("No such file or directory") {
            return Missing(name: program, package: "apt " + (debianPackages[program] ?? program))
        }
        // A script that runs a missing program: the shell says `NAME: command not found`.
        if let notFound = output.standardError.range(of: ": command not found") {
            let name = output.standardError[..<notFound.lowerBound].split(whereSeparator: { " :\n".contains($0) }).last
            if let name { return Missing(name: String(name), package: "apt " + (debianPackages[String(name)] ?? String(name))) }
        }
        let marker = "ModuleNotFoundError: No module named '"
        guard let start = output.standardError.range(of: marker)?.upperBound,
            let end = output.standardError[start...].firstIndex(of: "'")
        else { return nil }
        let module = String(output.standardError[start..<end].prefix { $0 != "." })
        return Missing(name: "python module \(module)", package: "pip " + (pythonDistributions[module] ?? module))
    }
}
