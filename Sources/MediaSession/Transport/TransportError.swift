import Glibc

/// A socket call failed: which one, on what, and the system's error.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call or step that failed (`bind`, `sendmmsg`, `parse address`, …).
    public let operation: String
    /// What it was done to: an address, a socket, or empty.
    public let subject: String
    /// The `errno` value, or 0 when the failure is ours.
    public let code: Int32
    /// `strerror` for the code, or our explanation.
    public let message: String

    init(operation: String, subject: String, code: Int32) {
        self.operation = operation
        self.subject = subject
        self.code = code
        self.message = String(cString: strerror(code))
    }

    init(operation: String, subject: String, message: String) {
        self.operation = operation
        self.subject = subject
        self.code = 0
        self.message = message
    }

    /// For example "bind 127.0.0.1:5004 failed: Address already in use (errno 98)".
    public var description: String {
        let target = subject.isEmpty ? "" : " \(subject)"
        let number = code == 0 ? "" : " (errno \(code))"
        return "\(operation)\(target) failed: \(message)\(number)"
    }
}
