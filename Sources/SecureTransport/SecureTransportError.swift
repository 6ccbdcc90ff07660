/// A failure of SecureTransport's set-up: OpenSSL refused an operation.
public enum SecureTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// OpenSSL failed; the text names the call and OpenSSL's own error strings.
    case openSSL(String)

    /// What failed.
    public var description: String {
        switch self {
        case let .openSSL(detail): "OpenSSL: \(detail)"
        }
    }
}
