/// An SDP text could not be read or negotiated; names the line (1-based) and what was wrong.
public struct SDPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line number, or 0 when the problem is not on one line (for example a missing `m=`).
    public let line: Int
    /// The offending line's text, or empty.
    public let text: String
    /// What was wrong.
    public let reason: String

    /// An error about line `line` whose text is `text`.
    public init(line: Int, text: String, reason: String) {
        self.line = line
        self.text = text
        self.reason = reason
    }

    /// An error about the description as a whole.
    public init(reason: String) {
        self.init(line: 0, text: "", reason: reason)
    }

    /// For example "SDP line 7 'a=rtpmap:x PCMU/8000': payload type is not a number".
    public var description: String {
        line == 0 ? "SDP: \(reason)" : "SDP line \(line) '\(text)': \(reason)"
    }
}
