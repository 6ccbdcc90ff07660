/// Why an Opus packet could not be inspected.
public enum OpusPacketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The packet has no bytes, so not even a TOC byte.
    case empty
    /// The frame lengths the packet declares do not fit its length, or break a rule of RFC 6716
    /// §3.4 (odd length for two equal frames, a frame over 1275 bytes, more than 120 ms of audio,
    /// padding past the end). `frameCountCode` is the TOC's code `c` (0–3) that chose the framing.
    case malformed(packetBytes: Int, frameCountCode: Int)

    /// A one-line account of the problem.
    public var description: String {
        switch self {
        case .empty:
            "empty Opus packet: no TOC byte"
        case let .malformed(bytes, code):
            "malformed Opus packet of \(bytes) bytes: its framing (TOC code \(code)) does not fit its length (RFC 6716 §3.4)"
        }
    }
}
