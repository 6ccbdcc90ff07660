import Foundation
import Synchronization
import Testing

@testable import MediabenchCLI

@Suite struct CommandLineTests {
    @Test func versionPrintsTheVersion() {
        let run = Invocation(["--version"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "mediabench \(Mediabench.version)\n")
        #expect(run.standardError.isEmpty)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelpListsEveryCommand(arguments: [String]) {
        let run = Invocation(arguments)
        #expect(run.status == 0)
        for command in Mediabench.commands {
            #expect(run.standardOutput.contains("  \(command.name) "))
        }
    }

    @Test(arguments: [
        ([], "mediabench: missing command (see 'mediabench --help')\n"),
        (["frob"], "mediabench: unknown command 'frob' (see 'mediabench --help')\n"),
        (["--frob"], "mediabench: unknown option '--frob' (see 'mediabench --help')\n"),
        (["bench", "--bogus"], "mediabench bench: unknown option '--bogus'\n"),
        (["bench", "--runs", "x"], "mediabench bench: --runs expects a positive integer, got 'x'\n"),
        (["bench", "--format", "xml"], "mediabench bench: --format expects text or json, got 'xml'\n"),
        (["analyze"], "mediabench analyze: missing FILE\n"),
        (["transcode", "--loss", "120"], "mediabench transcode: --loss expects a number from 0 to 100, got '120'\n"),
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) {
        let run = Invocation(arguments)
        #expect(run.status == 2)
        #expect(run.standardError == message)
        #expect(run.standardOutput.isEmpty)
    }

    @Test(arguments: ["demo", "analyze", "simulate", "transcode", "emodel", "call", "bench"])
    func everyCommandHasHelpDescribingEveryArgument(name: String) throws {
        let command = try #require(Mediabench.commands.first { $0.name == name })
        let run = Invocation([name, "--help"])
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput.hasPrefix("USAGE: mediabench \(name)"))
        for declaration in command.arguments.map(\.declaration) {
            #expect(run.standardOutput.contains("  \(declaration.label)"), "\(declaration.label) missing from help")
            #expect(!declaration.help.isEmpty)
        }
        #expect(Invocation(["help", name]).standardOutput == run.standardOutput)
        for line in run.standardOutput.split(separator: "\n") {
            #expect(line.count <= HelpText.width, "help line too long: \(line)")
        }
    }

    @Test func helpWinsOverOtherArguments() {
        let run = Invocation(["bench", "--bogus", "--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("USAGE: mediabench bench"))
    }

    @Test func benchWritesJSONWithTheDesignKeysToAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let run = Invocation(["bench", "self-check", "--quick", "--runs", "2", "--format", "json", "--output", file.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let implementations = Set(rows.compactMap { $0["implementation"] as? String })
        #expect(implementations.contains("ours"))
        #expect(implementations.contains { $0.hasPrefix("c-loop") })
        for row in rows {
            for key in ["suite", "case", "implementation", "unit", "median", "p95", "runs"] {
                #expect(row[key] != nil, "missing \(key)")
            }
            #expect(row["runs"] as? Int == 2)
        }
    }

    @Test func dataOutputNamesAFileItCannotWrite() {
        let console = Console(write: { _ in }, writeError: { _ in })
        #expect(throws: CommandFailure("cannot write /nonexistent-dir/x.json: No such file or directory")) {
            try DataOutput.write("[]", toFile: "/nonexistent-dir/x.json", console: console)
        }
    }
}
