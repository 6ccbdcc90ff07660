import Foundation
import TestSupport
import Testing

/// `scripts/analyze-archive.sh` runs the Spark job (spark/analyze_archive.py) in local mode on
/// ten generated captures; the Parquet rows it writes must equal, field for field, the records
/// of a direct `mediabench analyze --format jsonl` of the same files. Needs pyspark, pyarrow
/// and a JRE (`scripts/install-deps.sh --test`) and the debug `mediabench` binary
/// (`swift build --build-tests` builds it).
@Suite("Archive analysis on Spark")
struct SparkArchiveTests {
    @Test(.timeLimit(.minutes(15))) func parquetRowsEqualDirectAnalysis() throws {
        let root = Fixtures.packageRoot
        let binary = root.appendingPathComponent(".build/debug/mediabench").path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "no \(binary): run swift build --build-tests")
        try ExternalTool.run(["python3", "-c", "import pyspark, pyarrow"])
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("spark-archive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let captures = work.appendingPathComponent("captures").path
        let output = work.appendingPathComponent("out").path
        try ExternalTool.run(["python3", root.appendingPathComponent("spark/generate_captures.py").path, "10", captures])
        try ExternalTool.run([
            "timeout", "900", "env", "MEDIABENCH=\(binary)",
            root.appendingPathComponent("scripts/analyze-archive.sh").path,
            "--master", "local[2]", captures, output,
        ])

        let parquet = try ExternalTool.run([
            "python3", "-c",
            """
            import json, sys, pyarrow.parquet as pq
            rows = pq.read_table(sys.argv[1]).to_pylist()
            print(json.dumps(rows))
            """, output + "/streams",
        ]).standardOutput
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(parquet.utf8)) as? [[String: Any]])
        let files = try FileManager.default.contentsOfDirectory(atPath: captures).sorted().map { captures + "/" + $0 }
        let direct = try ExternalTool.run([binary, "analyze", "--format", "jsonl"] + files).standardOutput
            .split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        #expect(rows.count == direct.count)
        #expect(direct.count == 20)
        func key(_ record: [String: Any]) -> String { "\(record["file"] ?? "")|\(record["ssrc"] ?? "")" }
        let byKey = Dictionary(uniqueKeysWithValues: rows.map { (key($0), $0) })
        for record in direct {
            let row = try #require(byKey[key(record)], "no Parquet row for \(key(record))")
            for (name, value) in record {
                #expect(Self.same(value, row[name]), "\(key(record)) \(name): \(value) vs \(row[name] ?? "absent")")
            }
        }
        let summary = try String(contentsOfFile: output + "/summary.json", encoding: .utf8)
        #expect(summary.contains("worst_calls_by_mos"))
        #expect(summary.contains("\"captures\": 10"))
    }

    /// JSON values equal as the analyzer wrote them: numbers by value, `null` as absent.
    private static func same(_ lhs: Any, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (is NSNull, nil), (is NSNull, is NSNull): true
        case (let left as NSNumber, let right as NSNumber): left.doubleValue == right.doubleValue
        case (let left as String, let right as String): left == right
        default: false
        }
    }
}
