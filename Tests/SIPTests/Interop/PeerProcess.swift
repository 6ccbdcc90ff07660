import Foundation
import Glibc

/// An outside softphone started by a test: its output goes to a log file, it is killed at its
/// deadline whatever happens, and ``stop()`` ends it (SIGTERM, then SIGKILL after 2 s).
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    let logPath: String
    private let input = Pipe()

    /// Starts `arguments` (the first looked up on PATH) in `directory`, killed after `seconds`.
    /// - Throws: a failure naming the Debian package when the program is missing.
    init(_ arguments: [String], package: String, directory: String, seconds: Double, home: String? = nil) throws {
        guard let path = Self.find(arguments[0]) else {
            throw InteropFailure("\(arguments[0]) not found: install the Debian package \(package) (scripts/install-deps.sh --test)")
        }
        logPath = directory + "/\(arguments[0]).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", String(Int(seconds.rounded(.up))), path] + arguments.dropFirst()
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = input
        if let home {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home
            process.environment = environment
        }
        try process.run()
    }

    /// Writes a line to the program's standard input. A peer that already exited (its deadline
    /// kills it) makes the write fail with EPIPE, not kill the test process with SIGPIPE.
    func send(line: String) {
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// What the program printed so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits at most `seconds` for `text` to appear in the log.
    func waitForLog(_ text: String, seconds: Double) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if log.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return log.contains(text)
    }

    /// The exit status once the program ended within `seconds`, else nil (it is then stopped).
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            stop()
            return nil
        }
        return process.terminationStatus
    }

    /// Ends the program (and `timeout`, its parent here) and waits for them: SIGTERM, then
    /// SIGKILL after 2 s to the program itself, found by its parent's process id.
    func stop() {
        guard process.isRunning else { return }
        let children = Self.children(of: process.processIdentifier)
        for pid in children { kill(pid, SIGTERM) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        for pid in children { kill(pid, SIGKILL) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The process ids whose parent is `pid` (from /proc).
    private static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func find(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Why an interop run could not be done (a missing peer, a peer that did not start).
struct InteropFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Free UDP/TCP ports on 127.0.0.1 for a peer's configuration.
enum FreePort {
    /// A port the system just handed out for `type` (SOCK_DGRAM or SOCK_STREAM), closed again.
    static func next(_ type: Int32 = Int32(SOCK_DGRAM.rawValue)) -> UInt16 {
        let descriptor = socket(AF_INET, type, 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }
}
