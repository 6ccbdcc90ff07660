import Foundation

/// Formats measured figures for the text table.
enum NumberFormatting {
    /// `value` with about `digits` significant digits and no exponent: 5.234 → "5.23",
    /// 523.4 → "523", 12345.6 → "12346". Non-finite values print as "-".
    static func significant(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return "-" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        let magnitude = value == 0 ? 0 : Int(log10(abs(value)).rounded(.down)) + 1
        let decimals = min(max(digits - magnitude, 0), 6)
        return String(format: "%.\(decimals)f", value)
    }
}
