/// The header extension of an ``RTPPacket`` (RFC 3550 §5.3.1), read in place.
///
/// With the RFC 8285 profiles its ``elements`` are iterated without copying: one-byte headers
/// (profile `0xBEDE`: ID 0 is a padding byte, ID 15 stops parsing) and two-byte headers
/// (profile `0x100X`: ID 0 is a padding byte). An element that would run past the extension
/// ends the list (see ``elementsAreWellFormed``). Any other profile is exposed raw through
/// ``profile`` and ``data`` and has no elements.
public struct RTPHeaderExtension {
    /// The extension: 16-bit profile, 16-bit length in words, then the data.
    @usableFromInline let bytes: UnsafeRawBufferPointer

    @inlinable init(validated bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The profile field: `0xBEDE` for one-byte elements, `0x1000`–`0x100F` for two-byte ones.
    @inlinable public var profile: UInt16 { bytes.uint16(at: 0) }
    /// The extension data after the 4-byte extension header.
    @inlinable public var data: UnsafeRawBufferPointer { bytes.slice(4, bytes.count) }
    /// The element form the profile announces, or `nil` for a profile RFC 8285 does not define.
    @inlinable public var form: RTPHeaderExtensionForm? { RTPHeaderExtensionForm(profile: profile) }
    /// The RFC 8285 elements (none for an unknown profile).
    @inlinable public var elements: RTPHeaderExtensionElements {
        RTPHeaderExtensionElements(data: data, form: form)
    }

    /// Whether every RFC 8285 element fits in the extension. When one does not, iteration
    /// stops before it (as libwebrtc and Wireshark do) and the packet stays usable.
    public var elementsAreWellFormed: Bool {
        var cursor = elements.makeIterator()
        while true {
            switch cursor.step() {
            case .element: continue
            case .end: return true
            case .overrun: return false
            }
        }
    }
}

/// The two element layouts of RFC 8285.
public enum RTPHeaderExtensionForm: Sendable, Equatable {
    /// One-byte headers: 4-bit ID (1–14), 4-bit length − 1; profile `0xBEDE`.
    case oneByte
    /// Two-byte headers: 8-bit ID (1–255), 8-bit length; profile `0x1000` | app bits.
    case twoByte

    /// The profile value that announces the form, with zero app bits for two-byte headers.
    @inlinable public var profile: UInt16 { self == .oneByte ? 0xBEDE : 0x1000 }

    /// The form a profile announces, or `nil` for any other profile.
    @inlinable
    public init?(profile: UInt16) {
        if profile == 0xBEDE {
            self = .oneByte
        } else if profile & 0xFFF0 == 0x1000 {
            self = .twoByte
        } else {
            return nil
        }
    }
}

/// One RFC 8285 header-extension element: its local ID and its data, in place.
public struct RTPHeaderExtensionElement {
    /// The local identifier negotiated in SDP (`a=extmap`).
    public let id: UInt8
    /// The element's data.
    public let data: UnsafeRawBufferPointer

    /// Makes an element from its parts.
    @inlinable
    public init(id: UInt8, data: UnsafeRawBufferPointer) {
        self.id = id
        self.data = data
    }
}

/// The elements of a header extension, iterated in place.
public struct RTPHeaderExtensionElements: Sequence {
    @usableFromInline let data: UnsafeRawBufferPointer
    @usableFromInline let form: RTPHeaderExtensionForm?

    @inlinable init(data: UnsafeRawBufferPointer, form: RTPHeaderExtensionForm?) {
        self.data = data
        self.form = form
    }

    /// An iterator from the first element.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(data: data, form: form)
    }

    /// Walks the elements, skipping padding and stopping at ID 15 of the one-byte form.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let data: UnsafeRawBufferPointer
        @usableFromInline let form: RTPHeaderExtensionForm?
        @usableFromInline var offset = 0

        @inlinable init(data: UnsafeRawBufferPointer, form: RTPHeaderExtensionForm?) {
            self.data = data
            self.form = form
        }

        /// The next element, or `nil` at the end or at an element that overruns the extension.
        @inlinable
        public mutating func next() -> RTPHeaderExtensionElement? {
            if case .element(let element) = step() { return element }
            return nil
        }

        /// What the bytes at the cursor hold.
        @usableFromInline
        enum Step {
            case element(RTPHeaderExtensionElement)
            case end
            case overrun
        }

        /// Reads the next element, skipping padding bytes.
        @inlinable
        mutating func step() -> Step {
            guard let form else { return .end }
            while offset < data.count {
                let first = data.uint8(at: offset)
                let id: UInt8
                let length: Int
                switch form {
                case .oneByte:
                    id = first >> 4
                    if id == 0 { offset += 1; continue }
                    if id == 15 { offset = data.count; return .end }
                    length = Int(first & 0x0F) + 1
                    offset += 1
                case .twoByte:
                    id = first
                    if id == 0 { offset += 1; continue }
                    guard offset + 1 < data.count else {
                        offset = data.count
                        return .overrun
                    }
                    length = Int(data.uint8(at: offset + 1))
                    offset += 2
                }
                guard length <= data.count - offset else {
                    offset = data.count
                    return .overrun
                }
                let element = RTPHeaderExtensionElement(id: id, data: data.slice(offset, offset + length))
                offset += length
                return .element(element)
            }
            return .end
        }
    }
}
