/// Why bytes are not a SIP message, with the offending part.
public enum SIPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No blank line ends the header section.
    case unterminatedHeaders
    /// The header section is not UTF-8 text.
    case notText
    /// The first line is neither `METHOD URI SIP/2.0` nor `SIP/2.0 CODE REASON`.
    case badStartLine(String)
    /// A header line has no colon or an empty name.
    case badHeader(String)
    /// Content-Length is not a number, or promises more bytes than arrived.
    case badContentLength(String)
    /// A mandatory header (Via, From, To, Call-ID, CSeq) is missing or unreadable.
    case missingHeader(String)
    /// A URI, name-address, Via or CSeq value is malformed.
    case badValue(header: String, value: String)
    /// The message is larger than a UDP datagram may carry.
    case tooLarge(Int)

    /// One line naming what was wrong.
    public var description: String {
        switch self {
        case .unterminatedHeaders: "no blank line after the headers"
        case .notText: "the headers are not UTF-8 text"
        case .badStartLine(let line): "bad start line '\(line.prefix(80))'"
        case .badHeader(let line): "bad header line '\(line.prefix(80))'"
        case .badContentLength(let value): "bad Content-Length '\(value.prefix(40))'"
        case .missingHeader(let name): "missing or malformed \(name) header"
        case .badValue(let header, let value): "bad \(header) value '\(value.prefix(80))'"
        case .tooLarge(let bytes): "\(bytes) bytes is more than a SIP datagram may hold"
        }
    }
}
