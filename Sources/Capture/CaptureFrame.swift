/// One captured frame, seen in place: its bytes belong to whoever produced the frame.
///
/// A frame handed out by ``CaptureReader`` points into libpcap's buffer and is valid only until
/// the reader moves on (the next ``CaptureReader/nextFrame()`` call, or the end of the closure it
/// was passed to). Keep a ``CaptureRecord`` (``record``) to hold on to a frame.
public struct CaptureFrame {
    /// The frame's position in its file, counted from 1 as tshark's `frame.number`.
    public var number: Int
    /// When the frame was captured.
    public var timestamp: CaptureTimestamp
    /// The frame's length on the wire; more than ``capturedLength`` when the capture cut it short.
    public var originalLength: Int
    /// The link-layer header type of ``bytes``.
    public var linkType: LinkType
    /// The captured bytes, starting with the link-layer header.
    public var bytes: UnsafeRawBufferPointer

    /// A frame over `bytes`; `originalLength` defaults to the number of bytes (nothing cut off).
    public init(
        number: Int = 1,
        timestamp: CaptureTimestamp = CaptureTimestamp(nanosecondsSinceEpoch: 0),
        linkType: LinkType,
        bytes: UnsafeRawBufferPointer,
        originalLength: Int? = nil
    ) {
        self.number = number
        self.timestamp = timestamp
        self.linkType = linkType
        self.bytes = bytes
        self.originalLength = originalLength ?? bytes.count
    }

    /// The number of bytes captured.
    public var capturedLength: Int { bytes.count }

    /// Whether the capture kept fewer bytes than the frame had on the wire (a snapshot length cut).
    public var isCut: Bool { bytes.count < originalLength }

    /// An owned copy of the frame's timestamp, lengths and bytes.
    public var record: CaptureRecord {
        CaptureRecord(timestamp: timestamp, bytes: Array(bytes), originalLength: originalLength)
    }
}

/// A captured frame that owns its bytes: what tests compare and what ``PcapWriter`` writes.
public struct CaptureRecord: Hashable, Sendable {
    /// When the frame was captured.
    public var timestamp: CaptureTimestamp
    /// The captured bytes, starting with the link-layer header.
    public var bytes: [UInt8]
    /// The frame's length on the wire (at least `bytes.count` for a well-formed record).
    public var originalLength: Int

    /// A record of `bytes` captured at `timestamp`; `originalLength` defaults to the byte count.
    public init(timestamp: CaptureTimestamp, bytes: [UInt8], originalLength: Int? = nil) {
        self.timestamp = timestamp
        self.bytes = bytes
        self.originalLength = originalLength ?? bytes.count
    }
}
