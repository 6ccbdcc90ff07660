internal import CPcap
internal import Glibc

/// Reads a pcap or pcapng file through libpcap, one frame at a time in constant memory.
///
/// The reader owns its libpcap handle and closes it exactly once, when it goes out of scope.
/// A classic pcap file that libpcap would pass on unchanged is read from a memory mapping
/// instead (no system call or copy per frame), libpcap taking over at anything unusual.
/// Frames are handed out in place (``CaptureFrame/bytes`` points into libpcap's buffer or the
/// mapping) and are valid until the reader moves on. Timestamps keep their full resolution:
/// the file is opened with nanosecond precision.
///
/// ```swift
/// var reader = try CaptureReader(path: "call.pcap")
/// var statistics = CaptureStatistics()
/// try reader.forEachUDPDatagram(counting: &statistics) { datagram in
///     print(datagram.source, "→", datagram.destination, datagram.payload.count)
/// }
/// ```
public struct CaptureReader: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the handle is owned by this one non-copyable value, so only one thread
    // can use it at a time; moving the reader to another thread moves the handle with it.

    /// The file being read.
    public let path: String
    /// The link-layer header type of every frame in the file.
    public let linkType: LinkType
    /// The file's snapshot length: the most bytes kept of any frame.
    public let snapshotLength: Int
    /// How many frames have been read so far (also the number of the last frame read).
    public private(set) var framesRead = 0

    private let handle: OpaquePointer
    /// The file's read buffer, ours so that it can be larger than stdio's (a page).
    private let readBuffer: UnsafeMutableRawPointer
    /// The records read from a mapping of the file while libpcap need not read them; `nil`
    /// once libpcap reads (from the start, or from where the mapping handed over).
    private var mapped: MappedPcapRecords?

    /// The read buffer's size: libpcap reads each record with two small `fread`s, and a large
    /// buffer makes one `read` system call per 256 KiB instead of one per 4 KiB.
    static let readBufferBytes = 256 * 1024

    /// Opens the capture at `path`.
    ///
    /// - Throws: ``CaptureError/fileNotFound(path:)``, ``CaptureError/cannotOpen(path:reason:)``, or
    ///   ``CaptureError/notACaptureFile(path:reason:)`` with libpcap's message.
    public init(path: String) throws(CaptureError) {
        // Opening the FILE ourselves tells "not found" from "not a capture", and keeps libpcap
        // from treating the path "-" as standard input.
        guard let file = fopen(path, "rb") else {
            let code = errno
            throw code == ENOENT
                ? .fileNotFound(path: path) : .cannotOpen(path: path, reason: Libpcap.systemMessage(code))
        }
        var status = stat()
        if fstat(fileno(file), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            fclose(file)
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferBytes, alignment: 16)
        setvbuf(file, readBuffer.assumingMemoryBound(to: CChar.self), _IOFBF, Self.readBufferBytes)
        var errorBuffer = Libpcap.errorBuffer()
        guard
            let handle = pcap_fopen_offline_with_tstamp_precision(
                file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer)
        else {
            // libpcap leaves the FILE open when it fails.
            fclose(file)
            readBuffer.deallocate()
            throw .notACaptureFile(path: path, reason: Libpcap.message(in: errorBuffer))
        }
        self.path = path
        self.handle = handle
        self.readBuffer = readBuffer
        linkType = LinkType(rawValue: pcap_datalink(handle))
        snapshotLength = Int(pcap_snapshot(handle))
        mapped = MappedPcapRecords(descriptor: fileno(file), linkType: linkType, snapshotLength: snapshotLength)
    }

    deinit {
        mapped?.unmap()
        // Closes the FILE, which uses the buffer until then.
        pcap_close(handle)
        readBuffer.deallocate()
    }

    /// The next frame, or `nil` at the end of the file. The frame's bytes are valid until the
    /// next call.
    ///
    /// - Throws: ``CaptureError/truncatedFile(path:framesRead:reason:)`` when the file ends inside
    ///   a record, ``CaptureError/corruptFile(path:framesRead:reason:)`` for an invalid record.
    public mutating func nextFrame() throws(CaptureError) -> CaptureFrame? {
        if mapped != nil {
            switch mapped!.next() {
            case .frame(let timestamp, let bytes, let originalLength):
                framesRead += 1
                return CaptureFrame(
                    number: framesRead, timestamp: timestamp, linkType: linkType, bytes: bytes,
                    originalLength: originalLength)
            case .handOver(let offset):
                mapped?.unmap()
                mapped = nil
                fseek(pcap_file(handle), offset, SEEK_SET)
            }
        }
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        let status = pcap_next_ex(handle, &header, &data)
        if status == PCAP_ERROR_BREAK {
            return nil
        }
        guard status == 1, let header, let data else {
            let reason = Libpcap.lastError(of: handle)
            // libpcap words every short read of a pcap or pcapng file as "truncated …".
            throw reason.contains("truncated")
                ? .truncatedFile(path: path, framesRead: framesRead, reason: reason)
                : .corruptFile(path: path, framesRead: framesRead, reason: reason)
        }
        framesRead += 1
        let record = header.pointee
        return CaptureFrame(
            number: framesRead,
            timestamp: CaptureTimestamp(seconds: Int64(record.ts.tv_sec), nanoseconds: Int64(record.ts.tv_usec)),
            linkType: linkType,
            bytes: UnsafeRawBufferPointer(start: data, count: Int(record.caplen)),
            originalLength: Int(record.len)
        )
    }

    /// Calls `body` with every remaining frame, each valid only during its call.
    ///
    /// - Throws: as ``nextFrame()``; the frames before the damage have been passed to `body`.
    public mutating func forEachFrame(_ body: (CaptureFrame) -> Void) throws(CaptureError) {
        while let frame = try nextFrame() {
            body(frame)
        }
    }

    /// Decodes every remaining frame, calls `body` with each UDP datagram (valid only during its
    /// call), and counts every frame and skip in `statistics`.
    ///
    /// `statistics` is updated frame by frame, so after a ``CaptureError/truncatedFile(path:framesRead:reason:)``
    /// it still holds what was found before the damage.
    ///
    /// - Throws: ``CaptureError/unsupportedLinkType(path:linkType:)`` before reading anything when the
    ///   file's link type cannot be decoded, else as ``nextFrame()``.
    public mutating func forEachUDPDatagram(
        counting statistics: inout CaptureStatistics,
        _ body: (UDPDatagram) -> Void
    ) throws(CaptureError) {
        guard linkType.isDecodable else {
            throw .unsupportedLinkType(path: path, linkType: linkType)
        }
        while let frame = try nextFrame() {
            let decoded = frame.decodeUDP()
            statistics.count(decoded)
            if case .datagram(let datagram) = decoded {
                body(datagram)
            }
        }
    }

    /// Every frame of the file at `path` as owned records, for tests and small files: this holds
    /// the whole file in memory, unlike the streaming methods.
    public static func records(path: String) throws(CaptureError) -> [CaptureRecord] {
        var reader = try CaptureReader(path: path)
        var records: [CaptureRecord] = []
        try reader.forEachFrame { records.append($0.record) }
        return records
    }
}
