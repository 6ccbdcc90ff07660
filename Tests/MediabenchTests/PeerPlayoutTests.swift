import BenchmarkSuites
import Testing

@Suite struct PeerPlayoutTests {
    @Test func readsTheHeaderAndEveryPullAndDropsTheTail() throws {
        let output = """
            tiny 1.0 jitter buffer
            knob,latency,200,ms
            1000.000,buffering
            1020.000,7
            1040.000,-
            1060.000,65536
            1080.000,-
            1100.000,buffering

            """
        let playout = try PeerPlayout(parsing: output, peer: "tiny")
        #expect(playout.implementation == "tiny 1.0 jitter buffer")
        #expect(playout.knob == .init(name: "latency", value: 200, unit: "ms"))
        #expect(playout.pulls.map(\.timeMilliseconds) == [1000, 1020, 1040, 1060])
        #expect(playout.pulls.map(\.outcome) == [.buffering, .played(sequence: 7), .missing, .played(sequence: 65536)])
        #expect(playout.playedSequences == [7, 65536])
    }

    @Test(arguments: [
        ("", 1),
        ("tiny 1.0", 2),
        ("tiny 1.0\nknob,latency,fast,ms", 2),
        ("tiny 1.0\nknob,latency,200,ms\n1000.000,7\n1020.000,seven", 4),
        ("tiny 1.0\nknob,latency,200,ms\n1000.000", 3),
        ("tiny 1.0\nknob,latency,200,ms\nnan,7", 3),
    ])
    func namesTheLineThatBreaksTheProtocol(output: String, lineNumber: Int) {
        #expect {
            try PeerPlayout(parsing: output, peer: "tiny")
        } throws: { error in
            guard case .badOutput(let peer, let line, _, _) = error as? JitterPeerError else { return false }
            return peer == "tiny" && line == lineNumber
        }
    }
}
