/// The two companding laws of ITU-T G.711: µ-law (North America, Japan; RTP `PCMU`) and
/// A-law (elsewhere; RTP `PCMA`).
///
/// Both map one 16-bit linear sample to one 8-bit code and back, bit-exact to the ITU-T G.191
/// Software Tool Library (STL) reference `g711.c`. The per-sample functions and the batch
/// functions in `G711Law+Batch.swift` read precomputed tables, so they cost one load per sample.
public enum G711Law: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// µ-law (`PCMU`).
    case muLaw
    /// A-law (`PCMA`).
    case aLaw

    /// The code of `sample`, as the G.191 reference computes it.
    @inlinable
    public func encode(_ sample: Int16) -> UInt8 {
        let shift = encodeShift
        return encodeTable.withUnsafeBufferPointer { $0[Int(UInt16(bitPattern: sample) &>> shift)] }
    }

    /// The linear sample that `code` stands for, as the G.191 reference computes it.
    @inlinable
    public func decode(_ code: UInt8) -> Int16 {
        decodeTable[Int(code)]
    }

    /// This law's encode table, indexed by a sample's bit pattern shifted right by ``encodeShift``.
    @inlinable
    var encodeTable: [UInt8] {
        self == .muLaw ? G711Tables.muLawEncode : G711Tables.aLawEncode
    }

    /// The low bits the G.191 reference ignores: 2 for µ-law (14-bit input), 4 for A-law (12-bit).
    @inlinable
    var encodeShift: UInt16 {
        self == .muLaw ? G711Tables.muLawDroppedBits : G711Tables.aLawDroppedBits
    }

    /// This law's decode table, indexed by code (256 entries).
    @inlinable
    var decodeTable: UnsafePointer<Int16> {
        self == .muLaw ? G711Tables.muLawDecode : G711Tables.aLawDecode
    }

    /// The code that silence (a zero sample) encodes to: 0xFF for µ-law, 0xD5 for A-law.
    public var silenceCode: UInt8 {
        encode(0)
    }

    /// The SDP encoding name: "PCMU" or "PCMA".
    public var encodingName: String {
        switch self {
        case .muLaw: "PCMU"
        case .aLaw: "PCMA"
        }
    }

    /// The static RTP payload type of RFC 3551: 0 for PCMU, 8 for PCMA.
    public var staticPayloadType: UInt8 {
        switch self {
        case .muLaw: 0
        case .aLaw: 8
        }
    }

    /// "µ-law" or "A-law".
    public var description: String {
        switch self {
        case .muLaw: "µ-law"
        case .aLaw: "A-law"
        }
    }
}
