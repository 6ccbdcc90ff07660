/// Why speech could not be played through the jitter benchmark's buffers or scored.
enum JitterListeningError: Error, CustomStringConvertible {
    /// The `--audio` file is not an 8 kHz mono WAV.
    case unreadableSpeech(path: String, message: String)
    /// The trace is not an 8 kHz one, or the speech is shorter than one of its packets.
    case unsupportedTrace(trace: String, clockRate: Int)
    /// `pesq_windows.py` exited with this status and message.
    case scoringFailed(status: Int32, message: String)

    /// One line saying what went wrong.
    var description: String {
        switch self {
        case .unreadableSpeech(let path, let message): "--audio \(path): \(message)"
        case .unsupportedTrace(let trace, let clockRate):
            "\(trace): speech needs an 8000 Hz trace at least one packet shorter than the speech (trace at \(clockRate) Hz)"
        case .scoringFailed(let status, let message): "pesq_windows.py exited with status \(status): \(message)"
        }
    }
}
