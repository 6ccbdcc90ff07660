/// Why a jitter peer could not replay a trace.
public enum JitterPeerError: Error, Sendable, CustomStringConvertible {
    /// The peer could not be built or started, or it exited with an error.
    case runFailed(peer: String, message: String)
    /// The peer's output broke the protocol at this line (1-based).
    case badOutput(peer: String, lineNumber: Int, line: String, expected: String)

    /// One line naming the peer and what went wrong.
    public var description: String {
        switch self {
        case .runFailed(let peer, let message):
            "jitter peer '\(peer)': \(message)"
        case .badOutput(let peer, let lineNumber, let line, let expected):
            "jitter peer '\(peer)': output line \(lineNumber) is '\(line.prefix(80))', expected \(expected)"
        }
    }
}
