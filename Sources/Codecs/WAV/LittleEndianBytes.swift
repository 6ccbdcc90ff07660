/// Bounds-checked little-endian reads from a byte buffer; every read says what it was for, so a
/// short file is reported as ``WAVError/truncated(what:offset:needed:available:)``.
struct LittleEndianBytes {
    /// The bytes being read.
    let bytes: UnsafeRawBufferPointer

    /// Throws unless `count` bytes are available at `offset`.
    func require(_ count: Int, at offset: Int, for what: String) throws(WAVError) {
        let available = max(0, bytes.count - offset)
        guard offset >= 0, count <= available else {
            throw .truncated(what: what, offset: offset, needed: count, available: available)
        }
    }

    /// The unsigned 16-bit number at `offset`.
    func uint16(at offset: Int, for what: String) throws(WAVError) -> UInt16 {
        try require(2, at: offset, for: what)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The unsigned 32-bit number at `offset`.
    func uint32(at offset: Int, for what: String) throws(WAVError) -> UInt32 {
        try require(4, at: offset, for: what)
        return (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The four-character code at `offset`, non-ASCII bytes shown as "?".
    func fourCC(at offset: Int, for what: String) throws(WAVError) -> String {
        try require(4, at: offset, for: what)
        return String(decoding: (0..<4).map { bytes[offset + $0] < 0x80 ? bytes[offset + $0] : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
