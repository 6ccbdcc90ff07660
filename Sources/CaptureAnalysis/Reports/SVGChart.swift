import QualityMetrics
import PlayoutLab
/// A small time chart drawn as inline SVG: lines or bars over a shared time axis, with a
/// labelled grid and a legend. The HTML report draws every plot with it; no script runs.
struct SVGChart {
    /// How a series is drawn.
    enum Style {
        case line
        case bars
    }

    /// One named series of (time in seconds, value) points; `nil` values leave a gap.
    struct Series {
        var name: String
        var color: String
        var style: Style
        var points: [(x: Double, y: Double?)]
        /// For bars: the width of each bar in seconds.
        var barWidth: Double = 1
    }

    var title: String
    var unit: String
    /// The time axis runs from 0 to this many seconds.
    var durationSeconds: Double
    var series: [Series]
    /// A fixed y range (for MOS: 1…5); otherwise 0 to a round number above the largest value.
    var fixedRange: ClosedRange<Double>?
    /// Whether the values are counts: then the y axis has whole-number ticks only.
    var counts = false

    private let width = 960.0
    private let height = 220.0
    private let left = 64.0
    private let right = 16.0
    private let top = 30.0
    private let bottom = 34.0

    init(
        title: String, unit: String, durationSeconds: Double, series: [Series],
        fixedRange: ClosedRange<Double>? = nil, counts: Bool = false
    ) {
        self.title = title
        self.unit = unit
        self.durationSeconds = durationSeconds
        self.series = series
        self.fixedRange = fixedRange
        self.counts = counts
    }

    /// The chart as an `<svg>` element.
    func render() -> String {
        let xMaximum = max(durationSeconds, 1)
        let ys = series.flatMap { $0.points.compactMap(\.y) }
        let yRange = fixedRange ?? 0...max(Self.niceCeiling(ys.max() ?? 0), counts ? 5 : 0)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func px(_ x: Double) -> Double { left + x / xMaximum * plotWidth }
        func py(_ y: Double) -> Double {
            let clamped = min(max(y, yRange.lowerBound), yRange.upperBound)
            return top + plotHeight * (1 - (clamped - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound))
        }
        var svg =
            "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(title))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
        svg += "<text x=\"\(Int(left))\" y=\"18\" class=\"title\">\(HTMLText.escape(title)) (\(HTMLText.escape(unit)))</text>\n"
        let yTicks = Self.ticks(yRange)
        for tick in yTicks where !counts || tick == tick.rounded() {
            let y = py(tick).formatted(decimals: 1)
            svg += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            svg += "<text x=\"\(Int(left) - 6)\" y=\"\(y)\" class=\"ytick\">\(Self.label(tick, among: yTicks))</text>\n"
        }
        let xTicks = Self.ticks(0...xMaximum)
        for tick in xTicks {
            let x = px(tick).formatted(decimals: 1)
            svg += "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"\(Int(top))\" y2=\"\(Int(height - bottom))\" class=\"grid\"/>"
            svg += "<text x=\"\(x)\" y=\"\(Int(height - bottom) + 16)\" class=\"xtick\">\(Self.label(tick, among: xTicks)) s</text>\n"
        }
        svg += "<rect x=\"\(Int(left))\" y=\"\(Int(top))\" width=\"\(Int(plotWidth))\" height=\"\(Int(plotHeight))\" class=\"frame\"/>\n"
        for entry in series {
            switch entry.style {
            case .bars:
                for point in entry.points {
                    guard let y = point.y, y > 0 else { continue }
                    let x0 = px(point.x)
                    let barWidth = max(px(point.x + entry.barWidth) - x0 - 1, 1.5)
                    svg +=
                        "<rect x=\"\(x0.formatted(decimals: 1))\" y=\"\(py(y).formatted(decimals: 1))\" "
                        + "width=\"\(barWidth.formatted(decimals: 1))\" height=\"\((py(yRange.lowerBound) - py(y)).formatted(decimals: 1))\" "
                        + "fill=\"\(entry.color)\"/>"
                }
                svg += "\n"
            case .line:
                for run in Self.runs(entry.points) {
                    let coordinates = run.map { "\(px($0.x).formatted(decimals: 1)),\(py($0.y).formatted(decimals: 1))" }
                    if coordinates.count == 1 {
                        svg +=
                            "<circle cx=\"\(px(run[0].x).formatted(decimals: 1))\" cy=\"\(py(run[0].y).formatted(decimals: 1))\" r=\"2\" fill=\"\(entry.color)\"/>"
                    } else {
                        svg += "<polyline points=\"\(coordinates.joined(separator: " "))\" fill=\"none\" stroke=\"\(entry.color)\" stroke-width=\"1.6\"/>\n"
                    }
                }
            }
        }
        var legendX = width - right - 8
        for entry in series.reversed() {
            let textWidth = Double(entry.name.count) * 6.5
            legendX -= textWidth + 22
            svg += "<rect x=\"\(Int(legendX))\" y=\"9\" width=\"12\" height=\"10\" fill=\"\(entry.color)\"/>"
            svg += "<text x=\"\(Int(legendX) + 16)\" y=\"18\" class=\"legend\">\(HTMLText.escape(entry.name))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The stretches of consecutive points that have values.
    private static func runs(_ points: [(x: Double, y: Double?)]) -> [[(x: Double, y: Double)]] {
        var runs: [[(x: Double, y: Double)]] = [[]]
        for point in points {
            if let y = point.y {
                runs[runs.count - 1].append((point.x, y))
            } else if !(runs.last?.isEmpty ?? true) {
                runs.append([])
            }
        }
        return runs.filter { !$0.isEmpty }
    }

    /// 1, 2 or 5 times a power of ten, at least `value` (1 for zero or less).
    static func niceCeiling(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for step in [1.0, 2, 5, 10] where step * magnitude >= value {
            return step * magnitude
        }
        return 10 * magnitude
    }

    /// About five round tick values across `range`.
    static func ticks(_ range: ClosedRange<Double>) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return [range.lowerBound] }
        let step = niceCeiling(span / 5)
        var ticks: [Double] = []
        var tick = (range.lowerBound / step).rounded(.up) * step
        while tick <= range.upperBound + step * 1e-9, ticks.count < 12 {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }

    /// `value` with as many decimals as the spacing of `ticks` needs (none for whole steps).
    private static func label(_ value: Double, among ticks: [Double]) -> String {
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        var decimals = 0
        var scaled = step
        while scaled < 0.999_999, decimals < 6 {
            scaled *= 10
            decimals += 1
        }
        return value.formatted(decimals: decimals)
    }
}

/// Escaping for text placed in HTML and SVG.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
