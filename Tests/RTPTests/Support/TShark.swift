import Foundation
import TestSupport

/// Runs tshark over a capture and returns the requested fields, one array per packet.
enum TShark {
    /// `tshark -r FILE [options] -T fields -E separator=/t -e F...` split into rows of columns.
    static func fields(_ file: URL, options: [String], fields: [String]) throws -> [[String]] {
        let arguments =
            ["tshark", "-n", "-r", file.path] + options + ["-T", "fields", "-E", "separator=/t"]
            + fields.flatMap { ["-e", $0] }
        let output = try ExternalTool.run(arguments).standardOutput
        return output.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The expert-info and malformed-packet lines tshark reports for `file` (empty when clean).
    static func problems(_ file: URL, options: [String]) throws -> [String] {
        let output = try ExternalTool.run(
            ["tshark", "-n", "-r", file.path] + options + [
                "-Y", "_ws.malformed || _ws.expert.severity >= 4194304", "-T", "fields", "-e", "frame.number", "-e", "_ws.expert.message",
            ]
        ).standardOutput
        return output.split(separator: "\n").map(String.init)
    }
}
