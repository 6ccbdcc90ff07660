/// The output format of a command whose output is data.
enum DataFormat: String, CaseIterable, Sendable {
    /// Aligned text for people.
    case text
    /// JSON for programs.
    case json
}

extension Option where Value == DataFormat {
    /// `--format text|json`, shared by the commands that print data.
    static var dataFormat: Option<DataFormat> {
        Option("format", "FORMAT", .oneOf, help: "Output format (default: text).")
    }
}
