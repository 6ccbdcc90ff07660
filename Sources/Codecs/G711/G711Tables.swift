/// Lookup tables built once from ``G711Reference``: a 256-entry decode table per law and an
/// encode table per law indexed by the top bits of the sample (14 bits, 16 384 entries for µ-law;
/// 12 bits, 4096 entries for A-law). The G.191 reference ignores the lower bits, so the tables are
/// exact for all 65 536 inputs; the tests check every one.
@usableFromInline
enum G711Tables {
    /// The low bits of a sample that µ-law encoding ignores.
    @usableFromInline
    static let muLawDroppedBits: UInt16 = 2

    /// The low bits of a sample that A-law encoding ignores.
    @usableFromInline
    static let aLawDroppedBits: UInt16 = 4

    /// µ-law codes for every 14-bit input (the sample's bit pattern shifted right by 2).
    @usableFromInline
    static let muLawEncode = encodeTable(droppedBits: muLawDroppedBits, G711Reference.muLawEncode)

    /// A-law codes for every 12-bit input (the sample's bit pattern shifted right by 4).
    @usableFromInline
    static let aLawEncode = encodeTable(droppedBits: aLawDroppedBits, G711Reference.aLawEncode)

    /// Linear samples for every µ-law code.
    @usableFromInline
    nonisolated(unsafe) static let muLawDecode = permanent((0...255).map { G711Reference.muLawDecode(UInt8($0)) })

    /// Linear samples for every A-law code.
    @usableFromInline
    nonisolated(unsafe) static let aLawDecode = permanent((0...255).map { G711Reference.aLawDecode(UInt8($0)) })

    /// `values` copied into memory that lives as long as the process: a decode reads it with no
    /// reference count to touch (an array's, shared by every thread decoding, is written twice
    /// per call). `nonisolated(unsafe)` above: written once, when the table is made, read only
    /// after.
    private static func permanent(_ values: [Int16]) -> UnsafePointer<Int16> {
        let table = UnsafeMutablePointer<Int16>.allocate(capacity: values.count)
        table.initialize(from: values, count: values.count)
        return UnsafePointer(table)
    }

    /// The code of every sample whose top bits are the index and whose dropped bits are zero.
    private static func encodeTable(droppedBits: UInt16, _ encode: (Int16) -> UInt8) -> [UInt8] {
        (0..<(1 << (16 - Int(droppedBits)))).map { index in
            encode(Int16(bitPattern: UInt16(truncatingIfNeeded: index) << droppedBits))
        }
    }
}
