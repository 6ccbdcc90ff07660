/// An SDES item type (RFC 3550 §6.5). Values not listed here are kept as read.
public struct RTCPSourceDescriptionItemType: RawRepresentable, Hashable, Sendable {
    /// The type octet.
    public var rawValue: UInt8

    /// Wraps a type octet.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Canonical end-point identifier; required in every compound packet.
    public static let cname = Self(rawValue: 1)
    /// User name.
    public static let name = Self(rawValue: 2)
    /// Electronic mail address.
    public static let email = Self(rawValue: 3)
    /// Phone number.
    public static let phone = Self(rawValue: 4)
    /// Geographic location.
    public static let location = Self(rawValue: 5)
    /// Application or tool name.
    public static let tool = Self(rawValue: 6)
    /// Notice or status.
    public static let note = Self(rawValue: 7)
    /// Private extension (prefix length, prefix, value).
    public static let privateExtension = Self(rawValue: 8)
}

/// A source-description packet (RFC 3550 §6.5), read in place.
public struct RTCPSourceDescription {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        var offset = 4
        for _ in 0..<packet.count {
            try packet.require(4, at: offset)
            offset += 4
            while true {
                try packet.require(1, at: offset)
                if packet.bytes.uint8(at: offset) == 0 {
                    offset = (offset + 4) & ~3
                    try packet.require(0, at: offset)
                    break
                }
                try packet.require(2, at: offset)
                try packet.require(2 + Int(packet.bytes.uint8(at: offset + 1)), at: offset)
                offset += 2 + Int(packet.bytes.uint8(at: offset + 1))
            }
        }
        self.packet = packet
    }

    /// The chunks, one per source.
    public var chunks: Chunks { Chunks(bytes: packet.bytes, count: Int(packet.count)) }

    /// The chunks of an SDES packet, in order.
    public struct Chunks: Sequence {
        let bytes: UnsafeRawBufferPointer
        let count: Int

        /// Iterates the chunks.
        public func makeIterator() -> Iterator { Iterator(bytes: bytes, remaining: count) }

        /// Walks the chunks of a validated packet.
        public struct Iterator: IteratorProtocol {
            let bytes: UnsafeRawBufferPointer
            var remaining: Int
            var offset = 4

            /// The next chunk, or `nil` after the last.
            public mutating func next() -> Chunk? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let start = offset
                offset += 4
                while bytes.uint8(at: offset) != 0 { offset += 2 + Int(bytes.uint8(at: offset + 1)) }
                let itemsEnd = offset
                offset = (offset + 4) & ~3
                return Chunk(ssrc: bytes.uint32(at: start), itemBytes: bytes.slice(start + 4, itemsEnd))
            }
        }
    }

    /// One chunk: a source and its items.
    public struct Chunk {
        /// The source (SSRC or CSRC) described.
        public let ssrc: UInt32
        let itemBytes: UnsafeRawBufferPointer

        /// The items, in order.
        public var items: Items { Items(bytes: itemBytes) }
    }

    /// The items of a chunk.
    public struct Items: Sequence {
        let bytes: UnsafeRawBufferPointer

        /// Iterates the items.
        public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

        /// Walks the items of a validated chunk.
        public struct Iterator: IteratorProtocol {
            let bytes: UnsafeRawBufferPointer
            var offset = 0

            /// The next item, or `nil` after the last.
            public mutating func next() -> Item? {
                guard offset < bytes.count else { return nil }
                let length = Int(bytes.uint8(at: offset + 1))
                let item = Item(
                    type: RTCPSourceDescriptionItemType(rawValue: bytes.uint8(at: offset)),
                    value: bytes.slice(offset + 2, offset + 2 + length))
                offset += 2 + length
                return item
            }
        }
    }

    /// One item: its type and value, in place.
    public struct Item {
        /// The item type.
        public let type: RTCPSourceDescriptionItemType
        /// The value bytes (UTF-8 text for the standard types).
        public let value: UnsafeRawBufferPointer

        /// The value decoded as UTF-8 (invalid sequences replaced); allocates a string.
        public var text: String { String(decoding: value, as: UTF8.self) }
    }
}

/// One SDES item to send.
public struct RTCPSourceDescriptionItem: Hashable, Sendable {
    /// The item type.
    public var type: RTCPSourceDescriptionItemType
    /// The value, at most 255 bytes of UTF-8.
    public var text: String

    /// An item of `type` holding `text`.
    public init(_ type: RTCPSourceDescriptionItemType, _ text: String) {
        self.type = type
        self.text = text
    }
}

/// One SDES chunk to send: a source and its items.
public struct RTCPSourceDescriptionChunk: Hashable, Sendable {
    /// The source described.
    public var ssrc: UInt32
    /// Its items.
    public var items: [RTCPSourceDescriptionItem]

    /// A chunk for `ssrc` with `items`.
    public init(ssrc: UInt32, items: [RTCPSourceDescriptionItem]) {
        self.ssrc = ssrc
        self.items = items
    }
}
