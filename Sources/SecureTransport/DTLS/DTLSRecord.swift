/// One DTLS record header (RFC 6347 §4.1) and where its fragment lies in the datagram.
public struct DTLSRecord: Equatable, Sendable {
    /// The record's content type.
    public enum ContentType: UInt8, Sendable {
        /// ChangeCipherSpec.
        case changeCipherSpec = 20
        /// An alert.
        case alert = 21
        /// A handshake message (fragment).
        case handshake = 22
        /// Application data.
        case applicationData = 23
    }

    /// The length of a DTLS record header.
    public static let headerLength = 13
    /// The largest fragment a record may declare: 2^14 octets of plaintext plus 2048 of expansion
    /// (RFC 6347 §4.1, RFC 5246 §6.2.3).
    public static let maximumFragmentLength = 16_384 + 2_048

    /// The content type.
    public let contentType: ContentType
    /// The protocol version on the wire: 0xFEFF for DTLS 1.0, 0xFEFD for DTLS 1.2.
    public let version: UInt16
    /// The epoch (0 until ChangeCipherSpec).
    public let epoch: UInt16
    /// The 48-bit record sequence number.
    public let sequenceNumber: UInt64
    /// The offset of the fragment in the datagram.
    public let fragmentOffset: Int
    /// The fragment's length.
    public let fragmentLength: Int

    /// The offset just past this record.
    public var endOffset: Int { fragmentOffset + fragmentLength }
}

/// Why a datagram is not a sequence of well-formed DTLS records.
public enum DTLSRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than 13 octets of header at `offset`.
    case truncatedHeader(offset: Int)
    /// The declared fragment length runs past the datagram or over the protocol's limit.
    case invalidLength(offset: Int, length: Int)
    /// A content type outside 20–23.
    case unknownContentType(offset: Int, value: UInt8)
    /// A version other than DTLS 1.0 (0xFEFF) or 1.2 (0xFEFD).
    case unsupportedVersion(offset: Int, value: UInt16)
    /// The datagram holds no record at all.
    case empty

    /// What was wrong and where.
    public var description: String {
        switch self {
        case let .truncatedHeader(offset): "DTLS record header truncated at byte \(offset)"
        case let .invalidLength(offset, length): "DTLS record at byte \(offset) declares \(length) octets that do not fit"
        case let .unknownContentType(offset, value): "DTLS record at byte \(offset) has unknown content type \(value)"
        case let .unsupportedVersion(offset, value): "DTLS record at byte \(offset) has version 0x\(String(value, radix: 16))"
        case .empty: "empty DTLS datagram"
        }
    }
}

/// Splits a datagram into DTLS records (RFC 6347 §4.1.1: a datagram may carry several), checking
/// every header and length before anything is read.
public enum DTLSRecordParser {
    /// The records of `datagram`, in order.
    /// - Throws: ``DTLSRecordError`` for the first record that is malformed; nothing is returned
    ///   for a datagram that is not well-formed from end to end.
    public static func records(in datagram: UnsafeRawBufferPointer) throws(DTLSRecordError) -> [DTLSRecord] {
        guard !datagram.isEmpty else { throw .empty }
        var records: [DTLSRecord] = []
        var offset = 0
        while offset < datagram.count {
            let record = try record(in: datagram, at: offset)
            records.append(record)
            offset = record.endOffset
        }
        return records
    }

    /// The record starting at `offset` in `datagram`.
    /// - Throws: ``DTLSRecordError`` when the header is truncated or invalid or the fragment does
    ///   not fit.
    public static func record(in datagram: UnsafeRawBufferPointer, at offset: Int) throws(DTLSRecordError) -> DTLSRecord {
        guard offset >= 0, datagram.count - offset >= DTLSRecord.headerLength else { throw .truncatedHeader(offset: offset) }
        func byte(_ index: Int) -> UInt64 { UInt64(datagram[offset + index]) }
        guard let contentType = DTLSRecord.ContentType(rawValue: datagram[offset]) else {
            throw .unknownContentType(offset: offset, value: datagram[offset])
        }
        let version = UInt16(byte(1) << 8 | byte(2))
        guard version == 0xFEFF || version == 0xFEFD else { throw .unsupportedVersion(offset: offset, value: version) }
        let epoch = UInt16(byte(3) << 8 | byte(4))
        let sequence = (3...8).reduce(UInt64(0)) { $0 << 8 | byte($1) }
        let length = Int(byte(11) << 8 | byte(12))
        let fragmentOffset = offset + DTLSRecord.headerLength
        guard length <= DTLSRecord.maximumFragmentLength, length <= datagram.count - fragmentOffset else {
            throw .invalidLength(offset: offset, length: length)
        }
        return DTLSRecord(
            contentType: contentType, version: version, epoch: epoch, sequenceNumber: sequence,
            fragmentOffset: fragmentOffset, fragmentLength: length
        )
    }

    /// Packs consecutive well-formed records of `stream` into datagrams of at most
    /// `maximumDatagramSize` octets (a record larger than that travels alone). Octets after the
    /// last well-formed record are dropped.
    static func datagrams(packing stream: [UInt8], maximumDatagramSize: Int) -> [[UInt8]] {
        stream.withUnsafeBytes { bytes in
            var datagrams: [[UInt8]] = []
            var current: [UInt8] = []
            var offset = 0
            while offset < bytes.count, let record = try? record(in: bytes, at: offset) {
                let recordBytes = bytes[offset..<record.endOffset]
                if !current.isEmpty, current.count + recordBytes.count > maximumDatagramSize {
                    datagrams.append(current)
                    current = []
                }
                current.append(contentsOf: recordBytes)
                offset = record.endOffset
            }
            if !current.isEmpty { datagrams.append(current) }
            return datagrams
        }
    }
}
