import BenchmarkHarness
import Foundation
import Testing

@Suite struct ReportTests {
    private func parse(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func timingRowCarriesTheDesignKeysInOrder() throws {
        var row = BenchmarkRow(
            suite: "self-check", caseName: "sum-1k", implementation: "c-loop (gcc 12.2.0)", unit: "ns/op",
            median: 101.5, p95: 160.25, runs: 21, allocationsPerOperation: 0)
        row.ratioOursToPeer = 0.5
        #expect(
            row.jsonText
                == #"{"suite": "self-check", "case": "sum-1k", "implementation": "c-loop (gcc 12.2.0)", "unit": "ns/op", "median": 101.5, "p95": 160.25, "runs": 21, "allocations_per_op": 0.0, "ratio_ours_to_peer": 0.5}"#
        )
    }

    @Test func qualityRowWithExtraFieldsParsesBack() throws {
        var row = BenchmarkRow(suite: "jitter", caseName: "spikes", implementation: "speexdsp 1.2.1", unit: "ms")
        row.setField("trace", "spikes \"1 s\"\n\t\u{1}")
        row.setField("p95_delay_ms", 87.5)
        row.setField("interruptions", 2)
        row.setField("recovery_ms", [412.5, 380])
        row.setField("p95_delay_ms", .number(.infinity))  // replaces, and non-finite becomes null
        let report = BenchmarkReport(rows: [row, row])
        let rows = try parse(report.jsonText)
        #expect(rows.count == 2)
        let object = rows[0]
        #expect(object["suite"] as? String == "jitter")
        #expect(object["median"] is NSNull)
        #expect(object["runs"] is NSNull)
        #expect(object["allocations_per_op"] == nil)
        #expect(object["trace"] as? String == "spikes \"1 s\"\n\t\u{1}")
        #expect(object["p95_delay_ms"] is NSNull)
        #expect(object["interruptions"] as? Int == 2)
        #expect(object["recovery_ms"] as? [Double] == [412.5, 380])
        #expect(row.extraFields.map(\.name) == ["trace", "p95_delay_ms", "interruptions", "recovery_ms"])
    }

    @Test func emptyReportIsAnEmptyList() throws {
        #expect(try parse(BenchmarkReport().jsonText).isEmpty)
    }

    @Test func tableScalesTimesAndShowsRatiosAndDetails() {
        var ours = BenchmarkRow(
            suite: "opus", caseName: "encode", implementation: "ours", unit: "ns/op", median: 190_400, p95: 201_000,
            runs: 5, allocationsPerOperation: 0)
        ours.setField("latency_ms", 26.5)
        var peer = BenchmarkRow(
            suite: "opus", caseName: "encode", implementation: "libopus 1.3.1", unit: "ns/op", median: 188_000,
            p95: 190_000, runs: 5)
        peer.ratioOursToPeer = 1.0128
        let lines = BenchmarkReport(rows: [ours, peer]).textTable.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("suite"))
        #expect(lines[1].contains("190  ") && lines[1].contains("201  µs/op") && lines[1].contains("latency_ms=26.5"))
        #expect(lines[2].contains("188") && lines[2].hasSuffix("1.01"))
    }
}
