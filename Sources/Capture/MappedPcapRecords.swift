internal import Glibc

/// The records of a classic pcap file read straight from a read-only memory mapping, so that a
/// frame costs neither a `read` system call's copy nor libpcap's two `fread`s.
///
/// Only what libpcap would hand out unchanged is read here: a regular file in this machine's
/// byte order, format 2.4, with microsecond or nanosecond timestamps and a link type the
/// decoder reads (libpcap rewrites some pseudo-headers of other types). A record that libpcap
/// would truncate, reject or find cut short is not read: ``next()`` answers
/// ``Step/handOver(offset:)`` and the reader lets libpcap go on from that offset, so that its
/// frames and its errors stay libpcap's own; so does the end of the mapped file. Pages already
/// read are given back every mebibyte (`releaseBytes`), so the process's resident memory does
/// not grow with the file. Its one owner calls ``unmap()`` when done.
struct MappedPcapRecords {
    /// What the next record gives.
    enum Step {
        /// A record: its timestamp, its bytes (valid until the next call) and the frame's
        /// length on the wire.
        case frame(timestamp: CaptureTimestamp, bytes: UnsafeRawBufferPointer, originalLength: Int)
        /// libpcap must read on from `offset`.
        case handOver(offset: Int)
    }

    private let base: UnsafeRawPointer
    private let size: Int
    private let snapshotLength: Int
    /// Microsecond timestamps scale to nanoseconds, as libpcap opened for nanoseconds does.
    private let nanosecondsPerFraction: Int64
    private var offset = fileHeaderBytes
    /// Everything before this offset has been given back to the kernel.
    private var released = 0

    private static let fileHeaderBytes = 24
    private static let recordHeaderBytes = 16
    /// How much of the file is read between two releases of the pages behind it.
    private static let releaseBytes = 1 << 20

    /// Maps the file open as `descriptor`, or `nil` when libpcap must read it (not a regular
    /// file, another format, byte order or version, a link type libpcap rewrites, or no
    /// mapping). `snapshotLength` is libpcap's figure for the file.
    init?(descriptor: Int32, linkType: LinkType, snapshotLength: Int) {
        guard linkType.isDecodable else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size >= Self.fileHeaderBytes
        else { return nil }
        let size = Int(status.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            return nil
        }
        let magic = mapping.loadUnaligned(as: UInt32.self)
        let major = mapping.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        let minor = mapping.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
        let scale: Int64? =
            switch magic {
            case 0xA1B2_C3D4: 1000
            case 0xA1B2_3C4D: 1
            default: nil
            }
        guard let scale, major == 2, minor == 4 else {
            munmap(mapping, size)
            return nil
        }
        madvise(mapping, size, MADV_SEQUENTIAL)
        base = UnsafeRawPointer(mapping)
        self.size = size
        self.snapshotLength = snapshotLength
        nanosecondsPerFraction = scale
    }

    /// Removes the mapping; nothing read from it may be used after.
    func unmap() {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }

    /// The next record, the end, or where libpcap must take over.
    mutating func next() -> Step {
        // At the end libpcap looks too, and finds what was written since the file was mapped.
        guard size - offset >= Self.recordHeaderBytes else { return .handOver(offset: offset) }
        let header = base + offset
        // Signed, as libpcap reads them.
        let seconds = header.loadUnaligned(as: Int32.self)
        let fraction = header.loadUnaligned(fromByteOffset: 4, as: Int32.self)
        let capturedLength = Int(header.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let originalLength = Int(header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let start = offset + Self.recordHeaderBytes
        guard capturedLength <= snapshotLength, capturedLength <= originalLength, capturedLength <= size - start else {
            return .handOver(offset: offset)
        }
        if start - released >= Self.releaseBytes {
            releasePages(before: offset)
        }
        offset = start + capturedLength
        return .frame(
            timestamp: CaptureTimestamp(seconds: Int64(seconds), nanoseconds: Int64(fraction) * nanosecondsPerFraction),
            bytes: UnsafeRawBufferPointer(start: base + start, count: capturedLength), originalLength: originalLength)
    }

    /// Drops the whole pages before `end` from this process's memory (they stay in the page
    /// cache; the mapping reads them again if ever touched).
    private mutating func releasePages(before end: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let upTo = end / page * page
        guard upTo > released else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + released), upTo - released, MADV_DONTNEED)
        released = upTo
    }
}
