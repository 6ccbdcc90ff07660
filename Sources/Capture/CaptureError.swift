/// A capture file could not be opened, read or written. Each case names the file; libpcap's own
/// message is kept in `reason` where libpcap gave one.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case fileNotFound(path: String)
    /// The file exists but cannot be opened (permissions, a directory, …).
    case cannotOpen(path: String, reason: String)
    /// The file is not a pcap or pcapng file libpcap can read (bad magic number, bad header).
    case notACaptureFile(path: String, reason: String)
    /// The file's link type is one the frame decoder does not know (see ``LinkType/isDecodable``).
    case unsupportedLinkType(path: String, linkType: LinkType)
    /// The file ends in the middle of a record, after `framesRead` complete frames.
    case truncatedFile(path: String, framesRead: Int, reason: String)
    /// A record is invalid (impossible length, bad block), after `framesRead` good frames.
    case corruptFile(path: String, framesRead: Int, reason: String)
    /// The file cannot be created or written.
    case cannotWrite(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .cannotOpen(let path, _), .notACaptureFile(let path, _),
            .unsupportedLinkType(let path, _), .truncatedFile(let path, _, _), .corruptFile(let path, _, _),
            .cannotWrite(let path, _):
            path
        }
    }

    /// One sentence naming the file, the problem and, for a damaged file, how far reading got.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "capture file \(path) not found"
        case .cannotOpen(let path, let reason):
            "cannot open capture file \(path): \(reason)"
        case .notACaptureFile(let path, let reason):
            "\(path) is not a pcap or pcapng capture file: \(reason)"
        case .unsupportedLinkType(let path, let linkType):
            "capture file \(path) has link type \(linkType), which the decoder does not support"
        case .truncatedFile(let path, let framesRead, let reason):
            "capture file \(path) is truncated: it ends inside frame \(framesRead + 1), "
                + "after \(framesRead) complete frames (\(reason))"
        case .corruptFile(let path, let framesRead, let reason):
            "capture file \(path) is corrupt at frame \(framesRead + 1), "
                + "after \(framesRead) good frames (\(reason))"
        case .cannotWrite(let path, let reason):
            "cannot write capture file \(path): \(reason)"
        }
    }
}
