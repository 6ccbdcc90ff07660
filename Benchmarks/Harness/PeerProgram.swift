import Foundation

/// A peer implementation written in C, built from `Benchmarks/peers/<name>.c` with the
/// system compiler and run as a subprocess.
///
/// ## Build
/// `cc -O2 -Wall -o .build/peers/<name> Benchmarks/peers/<name>.c $(pkg-config --cflags --libs
/// PACKAGES) EXTRA…`. The executable is rebuilt only when it is missing, older than its source,
/// or was built with a different command line (kept beside it in `<name>.command`).
///
/// ## Protocol
/// - `prog --version` prints one line: the peer's name and version (`spandsp 0.0.6`).
/// - `prog CASE ITERATIONS [ARGUMENTS…]` sets up, runs a short untimed warm-up, then times
///   exactly ITERATIONS operations of case CASE with `CLOCK_MONOTONIC` and prints the total
///   elapsed nanoseconds as one decimal integer on standard output. It exits with status 0,
///   or non-zero with a message on standard error (unknown case, missing library, bad input).
///
/// The peer times itself, so process start-up is never part of a measurement.
public struct PeerProgram: Sendable {
    /// The source file's name without `.c`.
    public let name: String
    /// pkg-config packages whose compiler and linker flags the build uses.
    public let pkgConfigPackages: [String]
    /// Extra compiler arguments, placed after the source (`-lm`).
    public let extraArguments: [String]
    /// Where the source is found and the executable goes.
    public let directories: PeerDirectories

    /// The peer `Benchmarks/peers/<name>.c`, built with the flags of `pkgConfigPackages`.
    public init(
        _ name: String,
        pkgConfigPackages: [String] = [],
        extraArguments: [String] = [],
        directories: PeerDirectories = .package
    ) {
        self.name = name
        self.pkgConfigPackages = pkgConfigPackages
        self.extraArguments = extraArguments
        self.directories = directories
    }

    /// The C source file.
    public var sourceFile: URL { directories.source.appendingPathComponent(name + ".c") }

    /// The built executable.
    public var executableFile: URL { directories.build.appendingPathComponent(name) }

    /// Builds the executable if it is missing or stale, and returns its location.
    public func build() throws(PeerProgramError) -> URL {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: sourceFile.path) else {
            throw .sourceMissing(name: name, path: sourceFile.path)
        }
        let command = try compileCommand()
        let stampFile = directories.build.appendingPathComponent(name + ".command")
        let stamp = command.joined(separator: " ")
        if isUpToDate(stampFile: stampFile, stamp: stamp) {
            return executableFile
        }
        do {
            try fileManager.createDirectory(at: directories.build, withIntermediateDirectories: true)
        } catch {
            throw .buildFailed(name: name, command: stamp, message: "\(error)")
        }
        // Build under a name private to this call, then rename: concurrent builds (other
        // processes, or other threads of this one) never see or write into a partial file.
        let temporary = directories.build.appendingPathComponent("\(name).\(UUID().uuidString).tmp")
        let output = try runTool(command + ["-o", temporary.path], name: name)
        guard output.status == 0 else {
            try? fileManager.removeItem(at: temporary)
            throw .buildFailed(name: name, command: stamp, message: output.standardError)
        }
        guard rename(temporary.path, executableFile.path) == 0 else {
            let message = String(cString: strerror(errno))
            try? fileManager.removeItem(at: temporary)
            throw .buildFailed(name: name, command: stamp, message: message)
        }
        do {
            try stamp.write(to: stampFile, atomically: true, encoding: .utf8)
        } catch {
            throw .buildFailed(name: name, command: stamp, message: "\(error)")
        }
        return executableFile
    }

    /// Builds if needed and returns what the program prints for `--version`.
    public func version() throws(PeerProgramError) -> String {
        let output = try run(["--version"])
        let line = output.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else {
            throw .badOutput(name: name, arguments: ["--version"], output: output)
        }
        return line
    }

    /// Builds if needed, runs the program with `arguments` and returns its standard output;
    /// a non-zero exit is an error carrying its standard error.
    public func run(_ arguments: [String]) throws(PeerProgramError) -> String {
        let executable = try build()
        let output: Subprocess.Output
        do {
            output = try Subprocess.run(executable, arguments)
        } catch {
            throw .runFailed(name: name, arguments: arguments, status: -1, message: "\(error)")
        }
        guard output.status == 0 else {
            throw .runFailed(
                name: name, arguments: arguments, status: output.status, message: output.standardError)
        }
        return output.standardOutput
    }

    /// Runs one timed batch by the protocol and returns the nanoseconds the program reported.
    public func timeBatch(
        caseName: String,
        iterations: Int,
        arguments: [String] = []
    ) throws(PeerProgramError) -> UInt64 {
        let fullArguments = [caseName, String(iterations)] + arguments
        let output = try run(fullArguments)
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let nanoseconds = UInt64(text) else {
            throw .badOutput(name: name, arguments: fullArguments, output: output)
        }
        return nanoseconds
    }

    private func compileCommand() throws(PeerProgramError) -> [String] {
        var flags: [String] = []
        if !pkgConfigPackages.isEmpty {
            let output = try runTool(["pkg-config", "--cflags", "--libs"] + pkgConfigPackages, name: name)
            guard output.status == 0 else {
                throw .missingPackages(name: name, packages: pkgConfigPackages, message: output.standardError)
            }
            flags = output.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return ["cc", "-O2", "-Wall", sourceFile.path] + flags + extraArguments
    }

    /// Whether the executable was built with `stamp` after its source and after every header
    /// beside it (the peers share `peer-protocol.h` and `jitter-trace.h`).
    private func isUpToDate(stampFile: URL, stamp: String) -> Bool {
        let fileManager = FileManager.default
        func modified(_ path: String) -> Date? {
            try? fileManager.attributesOfItem(atPath: path)[.modificationDate] as? Date
        }
        let folder = sourceFile.deletingLastPathComponent()
        let headers = ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".h") }.map { folder.appendingPathComponent($0).path }
        guard
            let builtDate = modified(executableFile.path),
            let builtStamp = try? String(contentsOf: stampFile, encoding: .utf8),
            builtStamp == stamp
        else { return false }
        return ([sourceFile.path] + headers).allSatisfy { path in modified(path).map { builtDate >= $0 } ?? false }
    }

    private func runTool(_ arguments: [String], name: String) throws(PeerProgramError) -> Subprocess.Output {
        do {
            return try Subprocess.run(searchingPath: arguments)
        } catch {
            throw .buildFailed(name: name, command: arguments.joined(separator: " "), message: "\(error)")
        }
    }
}

/// Where peer sources live and where their executables are built.
public struct PeerDirectories: Sendable {
    /// The folder holding `<name>.c`.
    public let source: URL
    /// The folder the executables are built into.
    public let build: URL

    /// Explicit folders (tests use temporary ones).
    public init(source: URL, build: URL) {
        self.source = source
        self.build = build
    }

    /// This package's `Benchmarks/peers` and `.build/peers`, found from this source file's path.
    public static var package: PeerDirectories {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Harness
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()
        return PeerDirectories(
            source: packageRoot.appendingPathComponent("Benchmarks/peers", isDirectory: true),
            build: packageRoot.appendingPathComponent(".build/peers", isDirectory: true)
        )
    }
}

/// Why a peer program could not be built or run.
public enum PeerProgramError: Error, Sendable, CustomStringConvertible {
    /// `Benchmarks/peers/<name>.c` does not exist.
    case sourceMissing(name: String, path: String)
    /// pkg-config does not know one of the packages (its development files are not installed).
    case missingPackages(name: String, packages: [String], message: String)
    /// The compiler (or a tool it needs) failed.
    case buildFailed(name: String, command: String, message: String)
    /// The program exited with a non-zero status, or could not start.
    case runFailed(name: String, arguments: [String], status: Int32, message: String)
    /// The program's output did not follow the protocol.
    case badOutput(name: String, arguments: [String], output: String)

    /// One line naming the peer, what failed, and the tool's own message.
    public var description: String {
        switch self {
        case .sourceMissing(let name, let path):
            "peer '\(name)': source not found at \(path)"
        case .missingPackages(let name, let packages, let message):
            "peer '\(name)': pkg-config cannot find \(packages.joined(separator: " ")) (install the -dev package): "
                + Self.firstLine(message)
        case .buildFailed(let name, let command, let message):
            "peer '\(name)': build failed (\(command)): \(Self.firstLine(message))"
        case .runFailed(let name, let arguments, let status, let message):
            "peer '\(name)' \(arguments.joined(separator: " ")) exited with status \(status): "
                + Self.firstLine(message)
        case .badOutput(let name, let arguments, let output):
            "peer '\(name)' \(arguments.joined(separator: " ")) printed \(JSONText.quoted(Self.firstLine(output))), "
                + "expected one integer"
        }
    }

    private static func firstLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline)
        // Compiler output puts the useful "error:" line after "In function…" context lines.
        let line = lines.first { $0.contains("error") } ?? lines.first ?? ""
        return line.trimmingCharacters(in: .whitespaces)
    }
}
