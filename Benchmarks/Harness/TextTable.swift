/// Renders report rows as an aligned, human-readable table.
enum TextTable {
    private static let headers = [
        "suite", "case", "implementation", "median", "p95", "unit", "allocs/op", "ours/peer", "details",
    ]
    /// Columns whose cells are right-aligned (numbers).
    private static let numericColumns: Set<Int> = [3, 4, 6, 7]

    /// One header line and one line per row, columns padded to their widest cell.
    static func render(_ rows: [BenchmarkRow]) -> String {
        let cells = [headers] + rows.map(cells(for:))
        // The details column is last and free-form: leave it unpadded, and drop it if empty.
        let usedColumns = rows.contains { !$0.extraFields.isEmpty } ? headers.count : headers.count - 1
        let widths = (0..<usedColumns).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { line in
            (0..<usedColumns).map { column in
                let cell = line[column]
                if column == usedColumns - 1 { return cell }
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return numericColumns.contains(column) ? padding + cell : cell + padding
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        .joined(separator: "\n") + "\n"
    }

    private static func cells(for row: BenchmarkRow) -> [String] {
        let scale = TimeScale(unit: row.unit, median: row.median)
        let format = { (value: Double?) in value.map { NumberFormatting.significant($0 / scale.divisor) } ?? "-" }
        return [
            row.suite,
            row.caseName,
            row.implementation,
            format(row.median),
            format(row.p95),
            scale.unit,
            row.allocationsPerOperation.map { NumberFormatting.significant($0) } ?? "-",
            row.ratioOursToPeer.map { NumberFormatting.significant($0, digits: 3) } ?? "",
            row.extraFields.map { "\($0.name)=\($0.value.displayText)" }.joined(separator: " "),
        ]
    }
}

/// The display unit for a row: `ns/op` rows are shown in the unit that suits their median.
private struct TimeScale {
    /// The unit shown.
    let unit: String
    /// What the row's figures are divided by to be in ``unit``.
    let divisor: Double

    /// The scale for a row in `unit` whose median is `median`.
    init(unit: String, median: Double?) {
        guard unit == "ns/op", let median else {
            self.unit = unit
            self.divisor = 1
            return
        }
        let scales: [(String, Double)] = [("s/op", 1e9), ("ms/op", 1e6), ("µs/op", 1e3)]
        let chosen = scales.first { median >= $0.1 } ?? ("ns/op", 1)
        self.unit = chosen.0
        self.divisor = chosen.1
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
