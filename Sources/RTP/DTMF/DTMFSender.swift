/// One telephone-event packet the sender wants sent: payload, RTP timestamp and marker bit.
/// The session adds sequence number and SSRC.
public struct DTMFPacket: Hashable, Sendable {
    /// The event payload.
    public var payload: DTMFEventPayload
    /// The RTP timestamp: the start of the event (or of its current segment).
    public var timestamp: RTPTimestamp
    /// Set on the first packet of an event.
    public var marker: Bool
}

/// The sending side of RFC 4733 (§2.5.1), as a pure state machine without clocks.
///
/// Call ``start(event:timestamp:duration:)`` when a key is pressed, then ``nextPacket()`` once
/// per packet interval: the first packet carries the marker bit, all packets of an event share
/// its timestamp while the duration grows, the final packet carries the end bit and is sent
/// three times. An event longer than 0xFFFF timestamp units is split into segments, each
/// with the timestamp of the previous one plus 0xFFFF (§2.5.1.3).
public struct DTMFSender: Sendable {
    /// Timestamp units between two packets (160 for 20 ms at 8 kHz).
    public let packetDuration: UInt32
    /// The volume sent, in −dBm0 (0–63).
    public let volume: UInt8

    /// The longest duration one segment can carry.
    public static let maximumSegmentDuration: UInt32 = 0xFFFF
    /// How many times the final packet is sent.
    public static let endPacketCount = 3

    private struct ActiveEvent {
        var event: UInt8
        var segmentTimestamp: RTPTimestamp
        /// Timestamp units covered by closed segments.
        var closedDuration: UInt64 = 0
        /// Timestamp units covered so far.
        var elapsed: UInt64 = 0
        /// When to end, in timestamp units from the start (`nil` until known).
        var plannedDuration: UInt64?
        var isFirstPacket = true
        /// Copies of the final packet still to send.
        var endPacketsLeft = 0
        var endPacket: DTMFPacket?
    }

    private var active: ActiveEvent?

    /// A sender emitting one packet every `packetDuration` timestamp units at `volume`.
    public init(packetDuration: UInt32, volume: UInt8 = 10) {
        self.packetDuration = max(packetDuration, 1)
        self.volume = min(volume, 63)
    }

    /// Whether an event is being sent.
    public var isActive: Bool { active != nil }

    /// Starts sending `event` from RTP time `timestamp`.
    ///
    /// - Parameters:
    ///   - event: the key or tone to send.
    ///   - timestamp: the RTP time the event starts at, which every packet of it carries.
    ///   - duration: the event's length in timestamp units, or `nil` to send until ``stop()``.
    /// - Returns: `false` (and changes nothing) while another event is still being sent.
    @discardableResult
    public mutating func start(event: UInt8, timestamp: RTPTimestamp, duration: UInt32? = nil) -> Bool {
        guard active == nil else { return false }
        active = ActiveEvent(event: event, segmentTimestamp: timestamp, plannedDuration: duration.map(UInt64.init))
        return true
    }

    /// Ends the current event now (the key was released, or earlier than its planned
    /// duration): the next packet is the final one, with the duration sent so far.
    public mutating func stop() {
        guard var event = active, event.endPacket == nil else { return }
        event.plannedDuration = min(event.plannedDuration ?? .max, max(event.elapsed, 1))
        active = event
    }

    /// The packet to send for this packet interval, or `nil` when idle.
    public mutating func nextPacket() -> DTMFPacket? {
        guard var event = active else { return nil }
        defer { active = event.endPacketsLeft == 0 && event.endPacket != nil ? nil : event }
        if let endPacket = event.endPacket {
            event.endPacketsLeft -= 1
            return endPacket
        }
        var elapsed = event.elapsed + UInt64(packetDuration)
        if let planned = event.plannedDuration { elapsed = min(elapsed, planned) }
        event.elapsed = elapsed
        let segmentDuration = elapsed - event.closedDuration
        let marker = event.isFirstPacket
        event.isFirstPacket = false
        if segmentDuration > UInt64(Self.maximumSegmentDuration) {
            let packet = makePacket(event, duration: Self.maximumSegmentDuration, isEnd: false, marker: marker)
            event.closedDuration += UInt64(Self.maximumSegmentDuration)
            event.segmentTimestamp = event.segmentTimestamp.advanced(by: Int(Self.maximumSegmentDuration))
            return packet
        }
        let isEnd = event.plannedDuration.map { elapsed >= $0 } ?? false
        let packet = makePacket(event, duration: UInt32(segmentDuration), isEnd: isEnd, marker: marker)
        if isEnd {
            event.endPacket = DTMFPacket(payload: packet.payload, timestamp: packet.timestamp, marker: false)
            event.endPacketsLeft = Self.endPacketCount - 1
        }
        return packet
    }

    private func makePacket(_ event: ActiveEvent, duration: UInt32, isEnd: Bool, marker: Bool) -> DTMFPacket {
        DTMFPacket(
            payload: DTMFEventPayload(event: event.event, isEnd: isEnd, volume: volume, duration: UInt16(duration)),
            timestamp: event.segmentTimestamp, marker: marker)
    }
}
