import RTP

/// Why an rtpdump file could not be read. Offsets are byte offsets into the file.
public enum RTPDumpError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the `#!rtpplay1.0 address/port` line.
    case missingPreamble
    /// The 16-byte file header after the preamble is cut short.
    case truncatedFileHeader
    /// A record header or its packet runs past the end of the file.
    case truncatedRecord(offset: Int)
    /// A record's length field is smaller than its own 8-byte header.
    case invalidRecordLength(offset: Int, length: Int)
    /// A recorded RTP packet is shorter than its header says, or is not RTP version 2.
    case malformedRTP(offset: Int, reason: String)
    /// The file holds no RTP packet.
    case noPackets

    /// A one-line account naming the byte offset.
    public var description: String {
        switch self {
        case .missingPreamble: "rtpdump: the file does not start with \"#!rtpplay1.0 address/port\\n\""
        case .truncatedFileHeader: "rtpdump: the file header after the preamble is truncated"
        case let .truncatedRecord(offset): "rtpdump: record at byte \(offset) is truncated"
        case let .invalidRecordLength(offset, length):
            "rtpdump: record at byte \(offset) has length \(length), less than its 8-byte header"
        case let .malformedRTP(offset, reason): "rtpdump: RTP packet at byte \(offset): \(reason)"
        case .noPackets: "rtpdump: the file holds no RTP packet"
        }
    }
}

/// A packet recorded in an rtpdump (rtpplay 1.0) file.
public struct RTPDumpPacket: Sendable, Equatable {
    /// Milliseconds from the start of the recording to the packet's arrival.
    public var arrivalOffsetMilliseconds: UInt32
    /// The RTP sequence number as on the wire.
    public var sequenceNumber: UInt16
    /// The RTP timestamp as on the wire.
    public var rtpTimestamp: UInt32
    /// The synchronisation source.
    public var ssrc: UInt32
    /// The payload type.
    public var payloadType: UInt8
    /// The marker bit.
    public var marker: Bool
    /// The payload size in bytes (headers, extension and padding excluded).
    public var payloadBytes: Int
}

/// Reads rtpdump files as written by rtptools' `rtpdump -F dump`: the line
/// `#!rtpplay1.0 address/port\n`, a 16-byte header (start seconds, microseconds, source address,
/// port, padding), then records of length (header included), packet length (0 for RTCP),
/// arrival offset in milliseconds, and the packet, all big-endian.
public enum RTPDump {
    /// The RTP packets of `bytes` in file (arrival) order; RTCP records are skipped.
    public static func packets(from bytes: [UInt8]) throws(RTPDumpError) -> [RTPDumpPacket] {
        let magic = Array("#!rtpplay1.0 ".utf8)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic,
            let newline = bytes[magic.count...].firstIndex(of: 0x0A)
        else { throw .missingPreamble }
        var offset = newline + 1
        guard bytes.count - offset >= 16 else { throw .truncatedFileHeader }
        offset += 16
        var packets: [RTPDumpPacket] = []
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else { throw .truncatedRecord(offset: offset) }
            let length = Int(bigEndian16(bytes, offset))
            let packetLength = Int(bigEndian16(bytes, offset + 2))
            let arrival = bigEndian32(bytes, offset + 4)
            guard length >= 8 else { throw .invalidRecordLength(offset: offset, length: length) }
            guard bytes.count - offset >= length else { throw .truncatedRecord(offset: offset) }
            if packetLength > 0 {
                let packet = Array(bytes[(offset + 8)..<(offset + length)])
                try packets.append(parseRTP(packet, offset: offset + 8, arrival: arrival))
            }
            offset += length
        }
        return packets
    }

    /// The network trace of the first stream (SSRC) in `bytes`: arrival times are the record
    /// offsets (packets recorded in the same millisecond are spaced 1 µs apart in file order, so
    /// the trace keeps the recorded arrival order); send times come from the unwrapped RTP timestamps at `clockRate`, shifted so that
    /// the fastest packet's delay is zero; sequence gaps become lost rows (timestamps
    /// interpolated); a repeated sequence number becomes a duplicate row after its original.
    public static func trace(from bytes: [UInt8], clockRate: Int) throws(RTPDumpError) -> NetworkTrace {
        let all = try packets(from: bytes)
        guard let first = all.first, clockRate > 0 else { throw .noPackets }
        var sequences = SequenceUnwrapper()
        var timestamps = TimestampUnwrapper()
        var arrivals: [(sequence: UInt64, timestamp: UInt64, arrival: Double, bytes: Int)] = []
        var previousArrival = -Double.infinity
        for packet in all where packet.ssrc == first.ssrc {
            let arrival = max(Double(packet.arrivalOffsetMilliseconds), previousArrival + 0.001)
            previousArrival = arrival
            arrivals.append(
                (
                    sequences.unwrap(SequenceNumber(packet.sequenceNumber)), timestamps.unwrap(RTPTimestamp(packet.rtpTimestamp)),
                    arrival, packet.payloadBytes
                )
            )
        }
        // Stable sort by sequence number: send order, duplicates after their original.
        let sorted = arrivals.enumerated().sorted { ($0.element.sequence, $0.offset) < ($1.element.sequence, $1.offset) }
            .map(\.element)
        let firstTimestamp = sorted[0].timestamp
        func sendTime(_ timestamp: UInt64) -> Double {
            Double(Int64(bitPattern: timestamp &- firstTimestamp)) * 1000 / Double(clockRate)
        }
        var rows: [TracePacket] = []
        for (index, packet) in sorted.enumerated() {
            if index > 0, packet.sequence > sorted[index - 1].sequence + 1 {
                let previous = sorted[index - 1]
                let missing = packet.sequence - previous.sequence
                for step in 1..<missing {
                    let span = Int64(bitPattern: packet.timestamp &- previous.timestamp)
                    let timestamp = previous.timestamp &+ UInt64(bitPattern: span * Int64(step) / Int64(missing))
                    rows.append(
                        TracePacket(
                            sequenceNumber: previous.sequence + step, rtpTimestamp: timestamp,
                            sendMilliseconds: sendTime(timestamp), arrivalMilliseconds: nil, payloadBytes: previous.bytes
                        )
                    )
                }
            }
            rows.append(
                TracePacket(
                    sequenceNumber: packet.sequence, rtpTimestamp: packet.timestamp,
                    sendMilliseconds: sendTime(packet.timestamp), arrivalMilliseconds: packet.arrival,
                    payloadBytes: packet.bytes
                )
            )
        }
        let fastest = rows.compactMap { row in row.arrivalMilliseconds.map { $0 - row.sendMilliseconds } }.min() ?? 0
        for index in rows.indices { rows[index].sendMilliseconds += fastest }
        return NetworkTrace(packets: rows)
    }

    private static func parseRTP(_ packet: [UInt8], offset: Int, arrival: UInt32) throws(RTPDumpError) -> RTPDumpPacket {
        guard packet.count >= 12 else {
            throw .malformedRTP(offset: offset, reason: "\(packet.count) bytes, less than the 12-byte header")
        }
        guard packet[0] >> 6 == 2 else { throw .malformedRTP(offset: offset, reason: "version \(packet[0] >> 6), not 2") }
        var headerLength = 12 + 4 * Int(packet[0] & 0x0F)
        if packet[0] & 0x10 != 0 {
            guard packet.count >= headerLength + 4 else {
                throw .malformedRTP(offset: offset, reason: "header extension runs past the packet")
            }
            headerLength += 4 + 4 * Int(bigEndian16(packet, headerLength + 2))
        }
        let padding = packet[0] & 0x20 != 0 ? Int(packet[packet.count - 1]) : 0
        guard packet.count >= headerLength + padding else {
            throw .malformedRTP(
                offset: offset,
                reason: "headers and padding (\(headerLength + padding) bytes) exceed the \(packet.count)-byte packet"
            )
        }
        return RTPDumpPacket(
            arrivalOffsetMilliseconds: arrival,
            sequenceNumber: bigEndian16(packet, 2),
            rtpTimestamp: bigEndian32(packet, 4),
            ssrc: bigEndian32(packet, 8),
            payloadType: packet[1] & 0x7F,
            marker: packet[1] & 0x80 != 0,
            payloadBytes: packet.count - headerLength - padding
        )
    }

    private static func bigEndian16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bigEndian16(bytes, offset)) << 16 | UInt32(bigEndian16(bytes, offset + 2))
    }
}
