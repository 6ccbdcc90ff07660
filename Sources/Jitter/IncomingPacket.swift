/// What the jitter buffer needs of one received RTP packet. The payload is only borrowed:
/// ``JitterBuffer/insert(_:arrivalMilliseconds:)-(IncomingPacket,_)`` copies it into the buffer's own store,
/// ``SynchronizedJitterBuffer/insert(_:arrivalMilliseconds:)-(IncomingPacket,_)`` into a store slot lent to its inbox.
public struct IncomingPacket {
    /// The RTP sequence number as on the wire.
    public var sequenceNumber: UInt16
    /// The RTP timestamp as on the wire.
    public var timestamp: UInt32
    /// The RTP marker bit: set on the first packet of a talkspurt.
    public var marker: Bool
    /// The RTP payload type.
    public var payloadType: UInt8
    /// The synchronisation source; a change resets the buffer.
    public var ssrc: UInt32
    /// The payload bytes, valid for the duration of the insert call.
    public var payload: UnsafeRawBufferPointer

    /// A packet's metadata and borrowed payload.
    public init(
        sequenceNumber: UInt16,
        timestamp: UInt32,
        marker: Bool = false,
        payloadType: UInt8,
        ssrc: UInt32,
        payload: UnsafeRawBufferPointer
    ) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.marker = marker
        self.payloadType = payloadType
        self.ssrc = ssrc
        self.payload = payload
    }
}

/// What became of an inserted packet.
public enum InsertOutcome: Sendable, Equatable {
    /// Stored for playout.
    case accepted
    /// Stored, and it started a new stream (first packet, SSRC change or timestamp jump).
    case acceptedAfterReset
    /// Already received; dropped.
    case duplicate
    /// Arrived after its playout time; counted late and dropped.
    case late
    /// Dropped because its payload is larger than the configured maximum.
    case oversized
    /// Dropped because its arrival time is not a finite time within 30 years of zero.
    case invalidArrivalTime
}
