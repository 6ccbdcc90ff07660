import Jitter
import PlayoutLab

/// The value of a `--jitter-buffer` flag: `ours` (the default, conversational settings),
/// `listening` (``JitterBufferConfiguration/listening``) or `fixed:MS` (a fixed-delay baseline
/// that follows clock drift).
enum JitterBufferChoice {
    /// The flag's values, for help texts.
    static let values = "ours|listening|fixed:MS"

    /// The settings `text` names, or a usage error naming the flag.
    static func configuration(_ text: String) throws(UsageError) -> JitterBufferConfiguration {
        switch text {
        case "ours": return JitterBufferConfiguration()
        case "listening": return .listening
        default:
            guard text.hasPrefix("fixed:"), let milliseconds = Double(text.dropFirst(6)), milliseconds >= 0, milliseconds.isFinite
            else {
                throw UsageError("--jitter-buffer: expected ours, listening or fixed:MS, got '\(text)'")
            }
            var configuration = JitterBufferConfiguration()
            configuration.delayPolicy = .fixed(milliseconds: milliseconds)
            return configuration
        }
    }
}
