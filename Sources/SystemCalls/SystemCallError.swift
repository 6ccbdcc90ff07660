/// A call into the system failed: what was done (`bind`, `snd_pcm_open`), to what (an address,
/// an audio device), the system's code and its message.
///
/// The one error type of the system wrappers: the transport's socket calls throw it as
/// `TransportError`, the ALSA wrapper as `AudioDeviceError` (both type aliases of this one),
/// each with its own initialiser that reads its library's message for the code.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call or step that failed (`bind`, `sendmmsg`, `snd_pcm_open`, `set sample rate`, …).
    public let operation: String
    /// What it was done to: an address, a socket, an audio device, or empty.
    public let subject: String
    /// The library's code: an `errno` value for sockets, ALSA's negative code for audio
    /// devices; 0 when the failure is ours.
    public let code: Int32
    /// The library's message for the code (`strerror`, `snd_strerror`), or our explanation.
    public let message: String

    /// An error with every field given.
    public init(operation: String, subject: String, code: Int32, message: String) {
        self.operation = operation
        self.subject = subject
        self.code = code
        self.message = message
    }

    /// For example "bind 127.0.0.1:5004 failed: Address already in use (code 98)".
    public var description: String {
        let target = subject.isEmpty ? "" : " \(subject)"
        let number = code == 0 ? "" : " (code \(code))"
        return "\(operation)\(target) failed: \(message)\(number)"
    }
}
