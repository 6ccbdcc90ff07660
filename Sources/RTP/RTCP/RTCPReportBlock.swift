/// One reception report block of an SR or RR (RFC 3550 §6.4.1): 24 bytes about one source.
public struct RTCPReportBlock: Hashable, Sendable {
    /// The source this block reports on.
    public var ssrc: UInt32
    /// Packets lost since the previous report over packets expected, in units of 1/256.
    public var fractionLost: UInt8
    /// Packets lost since reception began (24-bit signed: duplicates can make it negative).
    public var cumulativeLost: Int32
    /// Cycles of the sequence number (high 16 bits) and the highest sequence number received.
    public var extendedHighestSequence: UInt32
    /// Interarrival jitter, in timestamp units.
    public var jitter: UInt32
    /// The middle 32 bits of the NTP time of the last SR from the source (0 if none).
    public var lastSenderReport: UInt32
    /// The time since that SR arrived, in units of 1/65536 s (0 if none).
    public var delaySinceLastSenderReport: UInt32

    /// The encoded size of a report block.
    public static let byteCount = 24

    /// Collects a block's fields. `cumulativeLost` is clamped to the 24-bit field's range.
    public init(
        ssrc: UInt32, fractionLost: UInt8, cumulativeLost: Int32, extendedHighestSequence: UInt32,
        jitter: UInt32, lastSenderReport: UInt32, delaySinceLastSenderReport: UInt32
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = min(max(cumulativeLost, -0x80_0000), 0x7F_FFFF)
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    /// Reads a block at `offset` of `bytes` (24 bytes known to be there).
    init(validated bytes: UnsafeRawBufferPointer, at offset: Int) {
        let lossWord = bytes.uint32(at: offset + 4)
        self.init(
            ssrc: bytes.uint32(at: offset),
            fractionLost: UInt8(lossWord >> 24),
            cumulativeLost: Int32(bitPattern: lossWord << 8) >> 8,
            extendedHighestSequence: bytes.uint32(at: offset + 8),
            jitter: bytes.uint32(at: offset + 12),
            lastSenderReport: bytes.uint32(at: offset + 16),
            delaySinceLastSenderReport: bytes.uint32(at: offset + 20)
        )
    }

    /// Writes the block.
    func write(to writer: inout ByteWriter) throws(RTPError) {
        try writer.write(ssrc)
        try writer.write(UInt32(fractionLost) << 24 | UInt32(bitPattern: cumulativeLost) & 0xFF_FFFF)
        try writer.write(extendedHighestSequence)
        try writer.write(jitter)
        try writer.write(lastSenderReport)
        try writer.write(delaySinceLastSenderReport)
    }

    /// The round-trip time this block implies, for a block that arrived at `arrival` (on the
    /// clock of the SR it echoes), or `nil` when it echoes no SR (RFC 3550 §6.4.1).
    public func roundTripTime(arrival: NTPTimestamp) -> MediaTime? {
        CompactNTP.roundTripTime(
            arrival: arrival, lastReport: lastSenderReport, delaySinceLastReport: delaySinceLastSenderReport)
    }
}
