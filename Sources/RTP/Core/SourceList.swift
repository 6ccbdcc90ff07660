/// A list of 32-bit source identifiers (SSRCs or CSRCs) read in place: an RTP packet's CSRC
/// list, the sources of an RTCP BYE.
public struct SourceList: RandomAccessCollection {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    /// A list over `bytes`, whose length is a multiple of 4 checked by the parser.
    @inlinable init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The first index, 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of sources.
    @inlinable public var endIndex: Int { bytes.count / 4 }
    /// The source at `position`.
    @inlinable public subscript(position: Int) -> UInt32 {
        precondition(indices.contains(position), "source index out of range")
        return bytes.uint32(at: position * 4)
    }
}
