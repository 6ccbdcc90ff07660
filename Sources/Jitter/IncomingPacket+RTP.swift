import RTP

extension IncomingPacket {
    /// The metadata and payload of a parsed RTP packet (the payload is borrowed from the
    /// packet's bytes, as the view borrows them).
    @inlinable
    public init(_ packet: RTPPacket) {
        self.init(
            sequenceNumber: packet.sequenceNumber.rawValue, timestamp: packet.timestamp.rawValue, marker: packet.marker,
            payloadType: packet.payloadType, ssrc: packet.ssrc, payload: packet.payload
        )
    }
}

extension JitterBuffer {
    /// Takes one parsed RTP packet that arrived at `arrivalMilliseconds`, copying its payload.
    @discardableResult
    public mutating func insert(_ packet: RTPPacket, arrivalMilliseconds: Double) -> InsertOutcome {
        insert(IncomingPacket(packet), arrivalMilliseconds: arrivalMilliseconds)
    }
}

extension SynchronizedJitterBuffer {
    /// Hands over one parsed RTP packet that arrived at `arrivalMilliseconds`; returns `false`
    /// when it had to be dropped.
    @discardableResult
    public func insert(_ packet: RTPPacket, arrivalMilliseconds: Double) -> Bool {
        insert(IncomingPacket(packet), arrivalMilliseconds: arrivalMilliseconds)
    }

    /// ``insertDirectly(_:arrivalMilliseconds:)-(IncomingPacket,_)`` for a parsed RTP packet.
    @inlinable @discardableResult
    public func insertDirectly(_ packet: RTPPacket, arrivalMilliseconds: Double) -> Bool {
        insertDirectly(IncomingPacket(packet), arrivalMilliseconds: arrivalMilliseconds)
    }
}
