import Jitter
import PlayoutLab

/// The value of a `--jitter-buffer` flag: `ours` (the default settings), `low-delay`
/// (``JitterBufferConfiguration/lowDelay``) or `fixed:MS` (a fixed-delay baseline).
enum JitterBufferChoice {
    /// The flag's values, for help texts.
    static let values = "ours|low-delay|fixed:MS"

    /// The settings `text` names, or a usage error naming the flag.
    static func configuration(_ text: String) throws(UsageError) -> JitterBufferConfiguration {
        switch text {
        case "ours": return JitterBufferConfiguration()
        case "low-delay": return .lowDelay
        default:
            guard text.hasPrefix("fixed:"), let milliseconds = Double(text.dropFirst(6)), milliseconds >= 0, milliseconds.isFinite
            else {
                throw UsageError("--jitter-buffer: expected ours, low-delay or fixed:MS, got '\(text)'")
            }
            var configuration = JitterBufferConfiguration()
            configuration.delayPolicy = .fixed(milliseconds: milliseconds)
            return configuration
        }
    }
}
