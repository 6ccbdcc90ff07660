/// One row of a network trace: a packet as sent, and when (if ever) it arrived.
public struct TracePacket: Sendable, Equatable {
    /// The RTP sequence number, unwrapped to 64 bits.
    public var sequenceNumber: UInt64
    /// The RTP timestamp, unwrapped to 64 bits.
    public var rtpTimestamp: UInt64
    /// When the packet was sent, in milliseconds on the receiver's clock.
    public var sendMilliseconds: Double
    /// When the packet arrived, in milliseconds on the receiver's clock; `nil` when it was lost.
    public var arrivalMilliseconds: Double?
    /// The RTP payload size in bytes.
    public var payloadBytes: Int

    /// A packet row.
    public init(
        sequenceNumber: UInt64,
        rtpTimestamp: UInt64,
        sendMilliseconds: Double,
        arrivalMilliseconds: Double?,
        payloadBytes: Int
    ) {
        self.sequenceNumber = sequenceNumber
        self.rtpTimestamp = rtpTimestamp
        self.sendMilliseconds = sendMilliseconds
        self.arrivalMilliseconds = arrivalMilliseconds
        self.payloadBytes = payloadBytes
    }
}

/// A packet trace: one row per sent packet in send order, plus one row per duplicate (a repeat
/// of its packet's sequence number, right after it), as DESIGN.md's "Network trace CSV" says.
public struct NetworkTrace: Sendable, Equatable {
    /// The rows, in send order.
    public var packets: [TracePacket]

    /// A trace of `packets`.
    public init(packets: [TracePacket]) {
        self.packets = packets
    }

    /// The rows that are the first copy of their packet (duplicates left out).
    public var sentPackets: [TracePacket] {
        var seen = Set<UInt64>()
        return packets.filter { seen.insert($0.sequenceNumber).inserted }
    }

    /// The fraction of sent packets that never arrived.
    public var lossRate: Double {
        let sent = sentPackets
        guard !sent.isEmpty else { return 0 }
        let arrived = Set(packets.filter { $0.arrivalMilliseconds != nil }.map(\.sequenceNumber))
        return Double(sent.count - arrived.count) / Double(sent.count)
    }

    /// Every arrival in arrival order (duplicates included), ties kept in row order.
    public var arrivalOrder: [TracePacket] {
        packets.enumerated()
            .compactMap { index, packet in packet.arrivalMilliseconds.map { (index, $0, packet) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .map(\.2)
    }
}
