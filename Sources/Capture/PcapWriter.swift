internal import CPcap
internal import Glibc

/// Writes a classic pcap file through libpcap (`pcap_open_dead` + `pcap_dump_fopen`), which tshark
/// and every other capture tool read.
///
/// The writer owns its libpcap handles and closes the file exactly once, when it goes out of
/// scope; call ``finish()`` to flush and learn of write errors first.
public struct PcapWriter: ~Copyable {
    /// The resolution of the timestamps in the file.
    public enum TimestampPrecision: Sendable {
        /// Microseconds: the classic format (magic `a1b2c3d4`) that every tool reads.
        case microseconds
        /// Nanoseconds (magic `a1b23c4d`), read by libpcap 1.5+ and Wireshark.
        case nanoseconds
    }

    /// The file being written.
    public let path: String
    /// The link-layer header type recorded in the file header.
    public let linkType: LinkType
    /// The timestamp resolution recorded in the file.
    public let timestampPrecision: TimestampPrecision
    /// The most bytes kept of any frame; longer frames are cut, keeping their original length.
    public let snapshotLength: Int
    /// How many frames have been written.
    public private(set) var framesWritten = 0

    private let handle: OpaquePointer
    private let dumper: OpaquePointer

    /// Creates (or replaces) the pcap file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file to create.
    ///   - linkType: the link-layer header type of the frames that will be written.
    ///   - timestampPrecision: microseconds (default) or nanoseconds.
    ///   - snapshotLength: the most bytes kept of a frame, 1…262 144 (larger values are clamped).
    /// - Throws: ``CaptureError/cannotWrite(path:reason:)`` when the file cannot be created or libpcap
    ///   does not know the link type.
    public init(
        path: String,
        linkType: LinkType,
        timestampPrecision: TimestampPrecision = .microseconds,
        snapshotLength: Int = 262_144
    ) throws(CaptureError) {
        let snapshotLength = min(max(snapshotLength, 1), 262_144)
        let precision = timestampPrecision == .nanoseconds ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO
        guard let handle = pcap_open_dead_with_tstamp_precision(linkType.rawValue, Int32(snapshotLength), UInt32(precision))
        else {
            throw .cannotWrite(path: path, reason: "libpcap cannot create a handle for \(linkType)")
        }
        guard let file = fopen(path, "wb") else {
            let reason = Libpcap.systemMessage(errno)
            pcap_close(handle)
            throw .cannotWrite(path: path, reason: reason)
        }
        guard let dumper = pcap_dump_fopen(handle, file) else {
            let reason = Libpcap.lastError(of: handle)
            fclose(file)
            pcap_close(handle)
            throw .cannotWrite(path: path, reason: reason)
        }
        self.path = path
        self.linkType = linkType
        self.timestampPrecision = timestampPrecision
        self.snapshotLength = snapshotLength
        self.handle = handle
        self.dumper = dumper
    }

    deinit {
        pcap_dump_close(dumper)
        pcap_close(handle)
    }

    /// Appends one frame captured at `timestamp`. Bytes beyond ``snapshotLength`` are cut off;
    /// `originalLength` (the length on the wire) defaults to the number of bytes given.
    public mutating func write(_ bytes: UnsafeRawBufferPointer, timestamp: CaptureTimestamp, originalLength: Int? = nil) {
        let captured = min(bytes.count, snapshotLength)
        let subsecondDivisor: Int64 = timestampPrecision == .nanoseconds ? 1 : 1000
        var header = pcap_pkthdr()
        header.ts.tv_sec = Int(timestamp.seconds)
        header.ts.tv_usec = Int(timestamp.nanosecondsOfSecond / subsecondDivisor)
        header.caplen = UInt32(captured)
        header.len = UInt32(clamping: max(originalLength ?? bytes.count, captured))
        // An empty frame has no base address; libpcap writes zero bytes from it without reading.
        pcap_dump(UnsafeMutablePointer<UInt8>(dumper), &header, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        framesWritten += 1
    }

    /// Appends one record (its timestamp, bytes and original length).
    public mutating func write(_ record: CaptureRecord) {
        record.bytes.withUnsafeBytes { write($0, timestamp: record.timestamp, originalLength: record.originalLength) }
    }

    /// Pushes buffered frames to the file.
    ///
    /// - Throws: ``CaptureError/cannotWrite(path:reason:)`` if the file system refused them.
    public mutating func flush() throws(CaptureError) {
        guard pcap_dump_flush(dumper) == 0, ferror(pcap_dump_file(dumper)) == 0 else {
            throw .cannotWrite(path: path, reason: Libpcap.systemMessage(errno))
        }
    }

    /// Flushes and closes the file.
    ///
    /// - Throws: ``CaptureError/cannotWrite(path:reason:)`` if the last frames could not be written.
    public consuming func finish() throws(CaptureError) {
        try flush()
    }
}
