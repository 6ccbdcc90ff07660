import Foundation
import Testing
@testable import MediabenchCLI

/// `mediabench phone`: help, usage errors, an unreachable peer.
///
/// `phone` blocks its calling thread while its call runs on the cooperative pool: the tests
/// that make calls run it on a thread of their own (``Invocation/onOwnThread(_:)``), so they
/// need not be serialized with the other live-network tests.
@Suite struct PhoneCommandTests {
    @Test func helpDocumentsEveryFlag() {
        let help = Invocation(["phone", "--help"])
        #expect(help.status == 0)
        for flag in [
            "--listen", "--from", "--user", "--password", "--register", "--calls", "--codec", "--srtp", "--rtcp-mux",
            "--input", "--output", "--duration", "--dtmf", "--hold-at", "--resume-at", "--capture", "--jitter-buffer", "--format",
        ] {
            #expect(help.standardOutput.contains(flag), "\(flag)")
        }
    }

    @Test(arguments: [
        ["phone", "dial", "sip:bob@example.com"],
        ["phone", "dial", "http://127.0.0.1"],
        ["phone", "dial"],
        ["phone", "dial", "sip:bob@127.0.0.1", "--codec", "g729"],
        ["phone", "dial", "sip:bob@127.0.0.1", "--srtp", "ROT13"],
        ["phone", "dial", "sip:bob@127.0.0.1", "--user", "alice"],
        ["phone", "dial", "sip:bob@127.0.0.1", "--resume-at", "3"],
        ["phone", "answer"],
        ["phone", "answer", "--listen", "localhost"],
        ["phone", "ring"],
    ])
    func badArgumentsAreOneLineAndStatusTwo(arguments: [String]) {
        let run = Invocation(arguments)
        #expect(run.status == 2)
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
    }

    @Test func anUnreachablePeerFailsWithStatusOne() async {
        // Nothing listens on the discard port of the loopback.
        let run = await Invocation.onOwnThread(["phone", "dial", "sip:nobody@127.0.0.1:9", "--codec", "pcmu", "--duration", "2", "--format", "json"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("no response from the peer"))
        #expect(run.standardOutput.contains("\"final_state\":\"ended\""))
    }

    /// Three at once, more than the cooperative pool has threads here (two).
    @Test func phonesRunSideBySide() async {
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await Invocation.onOwnThread(["phone", "dial", "sip:nobody@127.0.0.1:9", "--codec", "pcmu", "--duration", "2"]).status
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [1, 1, 1])
    }
}
