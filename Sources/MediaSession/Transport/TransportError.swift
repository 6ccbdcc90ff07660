import Glibc
import SystemCalls

/// A socket call failed: which one, on what, and the system's error (`errno` and `strerror`).
public typealias TransportError = SystemCallError

extension SystemCallError {
    /// A socket call that failed with `errno` `code`.
    init(operation: String, subject: String, code: Int32) {
        self.init(operation: operation, subject: subject, code: code, message: String(cString: strerror(code)))
    }

    /// A transport failure found by us, not reported by the system.
    init(operation: String, subject: String, message: String) {
        self.init(operation: operation, subject: subject, code: 0, message: message)
    }
}
