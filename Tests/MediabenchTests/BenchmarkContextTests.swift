import BenchmarkHarness
import Foundation
import Testing
import TestSupport

/// Short batches keep these tests fast; what they check does not depend on batch length.
private let fastOptions = BenchmarkOptions(runs: 4, batchNanoseconds: 200_000)

/// Busy-waits about `nanoseconds` per operation, so implementations have known relative costs.
private func spin(_ iterations: Int, nanoseconds: Int) {
    let end = ContinuousClock.now + .nanoseconds(iterations * nanoseconds)
    while ContinuousClock.now < end {}
}

@Suite struct BenchmarkContextTests {
    @Test func sideBySideRowsCarryTheRatioOursOverPeer() throws {
        let context = BenchmarkContext(suite: "test", options: fastOptions)
        let measured = context.measure(
            BenchmarkCase(
                "spin", fields: ["frame_ms": 20],
                implementations: [
                    .ours { spin($0, nanoseconds: 2_000) },
                    .peer("slow 1.0") { spin($0, nanoseconds: 4_000) }.withField("knob", "high"),
                ]))
        #expect(context.failures.isEmpty)
        #expect(measured == context.rows)
        try #require(context.rows.count == 2)
        #expect(context.rows[0].extraFields.map(\.name) == ["frame_ms"])
        #expect(context.rows[1].field("frame_ms") == 20 && context.rows[1].field("knob") == "high")
        let (ours, peer) = (context.rows[0], context.rows[1])
        #expect(ours.implementation == "ours" && peer.implementation == "slow 1.0")
        #expect(ours.runs == 4 && ours.unit == "ns/op")
        #expect(ours.ratioOursToPeer == nil)
        let ratio = try #require(peer.ratioOursToPeer)
        // The ratio is defined on medians; its value depends on the machine, so only that is checked.
        #expect(abs(ratio - (try #require(ours.median)) / (try #require(peer.median))) < 1e-9)
        #expect(try #require(peer.median) >= 4_000)
        #expect(try #require(ours.median) >= 2_000)
        #expect(try #require(ours.p95) >= ours.median ?? 0)
    }

    @Test func runsAlternateBetweenImplementations() {
        var order: [String] = []
        let context = BenchmarkContext(suite: "test", options: BenchmarkOptions(runs: 3, batchNanoseconds: 50_000, warmUpBatches: 0))
        context.measure(
            BenchmarkCase(
                "order",
                implementations: [
                    .ours {
                        order.append("ours"); spin($0, nanoseconds: 1_000)
                    },
                    .peer("peer") {
                        order.append("peer"); spin($0, nanoseconds: 1_000)
                    },
                ]))
        // Calibration comes first, one implementation after the other; the last six batches
        // are the timed runs.
        #expect(Array(order.suffix(6)) == ["ours", "peer", "ours", "peer", "ours", "peer"])
    }

    @Test(.countsAllocations)
    func countsAllocationsPerOperation() throws {
        let context = BenchmarkContext(suite: "test", options: fastOptions)
        context.measure(
            BenchmarkCase(
                "allocate", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        for _ in 0..<iterations { blackHole([UInt8](repeating: 1, count: identity(32))) }
                    }
                ]))
        let perOperation = try #require(context.rows.first?.allocationsPerOperation)
        #expect(perOperation >= 1 && perOperation < 1.1)
    }

    @Test func aFailingPeerIsReportedAndOursStillMeasured() throws {
        let peers = try TemporaryPeers()
        let program = try peers.write("tiny", microsecondPeerSource)
        let context = BenchmarkContext(suite: "test", options: fastOptions)
        context.measure(
            BenchmarkCase(
                "op",
                implementations: [
                    .ours { spin($0, nanoseconds: 500) },
                    .program(program),
                    .program(PeerProgram("absent", directories: peers.directories)),
                    .program(program, caseName: "unknown"),
                ]))
        #expect(context.rows.map(\.implementation) == ["ours", "tiny 1.0"])
        let peerMedian = try #require(context.rows.last?.median)
        #expect(abs(peerMedian - 1_000) < 1e-9)  // the program reports exactly 1 µs per operation
        #expect(context.failures.count == 2, "\(context.failures)")
        #expect(context.failures.allSatisfy { $0.caseName == "op" && $0.suite == "test" })
        #expect(context.failures.map(\.implementation) == ["absent", "tiny 1.0"])
    }

    @Test func whenOursFailsTheCaseHasNoRows() {
        struct Broken: Error {}
        let context = BenchmarkContext(suite: "test", options: fastOptions)
        context.measure(
            BenchmarkCase(
                "broken",
                implementations: [
                    .ours { _ in throw Broken() },
                    .peer("peer") { spin($0, nanoseconds: 100) },
                ]))
        #expect(context.rows.isEmpty)
        #expect(context.failures.map(\.implementation) == ["ours"])
    }

    @Test func aThrowingSuiteIsAFailureAndTheNextSuiteRuns() {
        struct Unavailable: Error, CustomStringConvertible {
            var description: String { "no trace files" }
        }
        let failing = BenchmarkSuite(name: "failing", summary: "") { context in
            context.record(BenchmarkRow(suite: context.suite, caseName: "first", implementation: "ours", unit: "ms"))
            throw Unavailable()
        }
        let passing = BenchmarkSuite(name: "passing", summary: "") { context in
            context.record(BenchmarkRow(suite: context.suite, caseName: "only", implementation: "ours", unit: "ms"))
        }
        let report = BenchmarkRunner(options: fastOptions).run([failing, passing])
        #expect(report.rows.map(\.suite) == ["failing", "passing"])
        #expect(report.failures == [BenchmarkFailure(suite: "failing", caseName: nil, implementation: nil, message: "no trace files")])
        #expect(report.failures.first?.description == "failing: no trace files")
    }
}
