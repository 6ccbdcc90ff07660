import QualityMetrics
import PlayoutLab
import Foundation

/// The result of analysing one or more captures, with the tool that made it: what
/// `mediabench analyze` renders as JSON, CSV, text or HTML.
public struct AnalysisReport: Sendable, Hashable, Encodable {
    /// The tool's name, version and the options it ran with.
    public var tool: ToolInfo
    /// One report per capture file, in the order the files were given.
    public var files: [CaptureFileReport]

    /// A report of `files` made by `tool`.
    public init(tool: ToolInfo, files: [CaptureFileReport]) {
        self.tool = tool
        self.files = files
    }

    /// The report JSON of DESIGN.md: `{"tool": {…}, "files": [{"path", "streams": […], …}]}`,
    /// pretty-printed with sorted keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}

/// The program that made a report.
public struct ToolInfo: Sendable, Hashable, Encodable {
    /// Its name (`mediabench`).
    public var name: String
    /// Its version.
    public var version: String
    /// The options that shaped the analysis, by name (`format`, `jobs`, …); keys are never listed.
    public var options: [String: String]

    /// A tool description.
    public init(name: String, version: String, options: [String: String]) {
        self.name = name
        self.version = version
        self.options = options
    }
}
