/// The payload of an RFC 4733 telephone-event packet (§2.3): event, end bit, volume, duration.
public struct DTMFEventPayload: Hashable, Sendable {
    /// The event code: 0–9, 10 `*`, 11 `#`, 12–15 A–D, 16 flash (see ``DTMFEventCode``).
    public var event: UInt8
    /// Whether this packet ends the event (the E bit).
    public var isEnd: Bool
    /// The power level in −dBm0 (0–63).
    public var volume: UInt8
    /// The duration so far, in timestamp units, counted from the packet's timestamp.
    public var duration: UInt16

    /// The encoded size.
    public static let byteCount = 4

    /// Collects the payload's fields.
    public init(event: UInt8, isEnd: Bool, volume: UInt8, duration: UInt16) {
        self.event = event
        self.isEnd = isEnd
        self.volume = volume
        self.duration = duration
    }

    /// Reads the first 4 bytes of `bytes` (the reserved R bit is ignored; more bytes, as in a
    /// redundant RFC 2198 payload, are left to the caller).
    public init(parsing bytes: UnsafeRawBufferPointer) throws(RTPError) {
        try bytes.require(Self.byteCount, at: 0)
        let flags = bytes.uint8(at: 1)
        self.init(event: bytes.uint8(at: 0), isEnd: flags & 0x80 != 0, volume: flags & 0x3F, duration: bytes.uint16(at: 2))
    }

    /// Writes the payload at the start of `buffer` and returns its length (4).
    public func write(into buffer: UnsafeMutableRawBufferPointer) throws(RTPError) -> Int {
        guard volume < 64 else { throw RTPError(.valueOutOfRange(field: .dtmfVolume, value: Int(volume)), at: 1) }
        var writer = ByteWriter(buffer)
        try writer.write(event)
        try writer.write((isEnd ? 0x80 : 0) | volume)
        try writer.write(duration)
        return writer.offset
    }
}

/// The DTMF event codes of RFC 4733 §3.2 and their keypad characters.
public enum DTMFEventCode {
    /// The event code of a keypad character (`0`–`9`, `*`, `#`, `A`–`D`), or `nil`.
    public static func code(for character: Character) -> UInt8? {
        switch character {
        case "0"..."9": character.asciiValue.map { $0 - 48 }
        case "*": 10
        case "#": 11
        case "A"..."D": character.asciiValue.map { $0 - 65 + 12 }
        default: nil
        }
    }

    /// The keypad character of an event code 0–15, or `nil`.
    public static func character(for code: UInt8) -> Character? {
        switch code {
        case 0...9: Character(Unicode.Scalar(48 + code))
        case 10: "*"
        case 11: "#"
        case 12...15: Character(Unicode.Scalar(65 + code - 12))
        default: nil
        }
    }
}
