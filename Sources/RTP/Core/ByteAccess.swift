// Big-endian loads and stores on raw buffers. Callers check bounds first: these only read or
// write where a length check has already proved the bytes exist.

extension UnsafeRawBufferPointer {
    /// The byte at `offset`.
    @inlinable
    func uint8(at offset: Int) -> UInt8 {
        load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The big-endian 16-bit value at `offset`.
    @inlinable
    func uint16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The big-endian 32-bit value at `offset`.
    @inlinable
    func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The bytes from `start` to `end`, as a view sharing this buffer's memory.
    @inlinable
    func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[start..<end])
    }

    /// Throws ``RTPError/Reason/truncated(needed:available:)`` unless `count` bytes exist from
    /// `offset` up to `end` (the buffer's count when omitted).
    @inlinable
    func require(_ count: Int, at offset: Int, end: Int? = nil) throws(RTPError) {
        let available = (end ?? self.count) - offset
        guard count <= available else {
            throw RTPError(.truncated(needed: count, available: Swift.max(available, 0)), at: offset)
        }
    }
}

/// Writes big-endian fields into a caller's buffer, checking room before every write.
@usableFromInline
struct ByteWriter {
    /// The caller's buffer.
    @usableFromInline let buffer: UnsafeMutableRawBufferPointer
    /// The next byte to write.
    @usableFromInline var offset: Int

    @inlinable
    init(_ buffer: UnsafeMutableRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    /// Throws ``RTPError/Reason/bufferTooSmall(needed:available:)`` unless `count` more bytes fit.
    @inlinable
    func reserve(_ count: Int) throws(RTPError) {
        guard count <= buffer.count - offset else {
            throw RTPError(.bufferTooSmall(needed: offset + count, available: buffer.count), at: offset)
        }
    }

    @inlinable
    mutating func write(_ value: UInt8) throws(RTPError) {
        try reserve(1)
        buffer.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
        offset += 1
    }

    @inlinable
    mutating func write(_ value: UInt16) throws(RTPError) {
        try reserve(2)
        buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt16.self)
        offset += 2
    }

    @inlinable
    mutating func write(_ value: UInt32) throws(RTPError) {
        try reserve(4)
        buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
        offset += 4
    }

    @inlinable
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(RTPError) {
        try reserve(bytes.count)
        if let source = bytes.baseAddress, let destination = buffer.baseAddress {
            (destination + offset).copyMemory(from: source, byteCount: bytes.count)
        }
        offset += bytes.count
    }

    @inlinable
    mutating func write(_ text: String) throws(RTPError) {
        let utf8 = text.utf8
        try reserve(utf8.count)
        for byte in utf8 {
            buffer[offset] = byte
            offset += 1
        }
    }

    /// Writes `count` zero bytes.
    @inlinable
    mutating func writeZeros(_ count: Int) throws(RTPError) {
        try reserve(count)
        for index in offset..<(offset + count) { buffer[index] = 0 }
        offset += count
    }

    /// Overwrites the 16-bit value at an earlier `position` (a length field written last).
    @inlinable
    func patch(_ value: UInt16, at position: Int) {
        buffer.storeBytes(of: value.bigEndian, toByteOffset: position, as: UInt16.self)
    }

    /// Overwrites the byte at an earlier `position`.
    @inlinable
    func patch(_ value: UInt8, at position: Int) {
        buffer[position] = value
    }
}
