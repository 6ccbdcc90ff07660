import BenchmarkHarness
import Foundation
import Testing

/// A temporary peers folder holding C sources written by the test.
struct TemporaryPeers: ~Copyable {
    let directories: PeerDirectories

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("peers-\(UUID().uuidString)")
        directories = PeerDirectories(source: root.appendingPathComponent("src"), build: root.appendingPathComponent("build"))
        try FileManager.default.createDirectory(at: directories.source, withIntermediateDirectories: true)
    }

    /// Writes `<name>.c` and returns the program.
    func write(_ name: String, _ source: String, pkgConfigPackages: [String] = []) throws -> PeerProgram {
        try source.write(to: directories.source.appendingPathComponent(name + ".c"), atomically: true, encoding: .utf8)
        return PeerProgram(name, pkgConfigPackages: pkgConfigPackages, directories: directories)
    }

    deinit {
        try? FileManager.default.removeItem(at: directories.source.deletingLastPathComponent())
    }
}

/// A peer following the protocol: each operation takes 1 µs of reported time.
let microsecondPeerSource = """
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    int main(int argc, char **argv) {
        if (argc == 2 && strcmp(argv[1], "--version") == 0) { puts("tiny 1.0"); return 0; }
        if (argc < 3 || strcmp(argv[1], "op") != 0) { fprintf(stderr, "tiny: unknown case\\n"); return 2; }
        printf("%lld\\n", atoll(argv[2]) * 1000);
        return 0;
    }
    """

@Suite struct PeerProgramTests {
    @Test func buildsRunsAndTimesATinyProgram() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("tiny", microsecondPeerSource)
        #expect(try program.version() == "tiny 1.0")
        #expect(try program.timeBatch(caseName: "op", iterations: 7) == 7000)
        #expect(FileManager.default.isExecutableFile(atPath: program.executableFile.path))
    }

    @Test func reusesAnUpToDateBuildAndRebuildsAfterAnEdit() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("tiny", microsecondPeerSource)
        let executable = try program.build()
        let modified = { try FileManager.default.attributesOfItem(atPath: executable.path)[.modificationDate] as? Date }
        let firstBuild = try modified()
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: program.sourceFile.path)
        _ = try program.build()
        #expect(try modified() == firstBuild)
        _ = try peers.write("tiny", microsecondPeerSource.replacingOccurrences(of: "tiny 1.0", with: "tiny 2.0"))
        #expect(try program.version() == "tiny 2.0")
    }

    @Test func reportsAMissingSource() throws {
        let peers = try TemporaryPeers()
        let program = PeerProgram("absent", directories: peers.directories)
        #expect {
            try program.build()
        } throws: { error in
            guard case PeerProgramError.sourceMissing(let name, _) = error else { return false }
            return name == "absent"
        }
    }

    @Test func reportsACompileErrorWithTheCompilersLine() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("broken", "int main(void) { return undeclared_thing; }\n")
        #expect {
            try program.build()
        } throws: { error in
            guard case PeerProgramError.buildFailed = error else { return false }
            return "\(error)".contains("undeclared_thing")
        }
    }

    @Test func reportsAMissingPkgConfigPackage() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("tiny", microsecondPeerSource, pkgConfigPackages: ["no-such-package-xyz"])
        #expect {
            try program.build()
        } throws: { error in
            guard case PeerProgramError.missingPackages = error else { return false }
            return "\(error)".contains("no-such-package-xyz")
        }
    }

    @Test func reportsAFailingRunAndOutputOffProtocol() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("tiny", microsecondPeerSource)
        #expect {
            try program.timeBatch(caseName: "other", iterations: 1)
        } throws: { error in
            guard case PeerProgramError.runFailed(_, _, let status, let message) = error else { return false }
            return status == 2 && message.contains("unknown case")
        }
        let chatty = try peers.write("chatty", "#include <stdio.h>\nint main(void) { puts(\"fast!\"); return 0; }\n")
        #expect {
            try chatty.timeBatch(caseName: "op", iterations: 1)
        } throws: { error in
            guard case PeerProgramError.badOutput(_, _, let output) = error else { return false }
            return output == "fast!\n"
        }
    }
}
