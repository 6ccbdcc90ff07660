/// One key press as the receiver saw it.
public struct DTMFKeyPress: Hashable, Sendable {
    /// The event code (see ``DTMFEventCode``).
    public var event: UInt8
    /// The RTP timestamp of the event's start.
    public var timestamp: RTPTimestamp
    /// The duration, in timestamp units (all segments of a long event together).
    public var duration: UInt64
    /// The volume, in −dBm0.
    public var volume: UInt8
    /// Whether an end packet arrived (false: the event was cut short by a new one or a flush).
    public var endReceived: Bool

    /// Collects a press's fields.
    public init(event: UInt8, timestamp: RTPTimestamp, duration: UInt64, volume: UInt8, endReceived: Bool) {
        self.event = event
        self.timestamp = timestamp
        self.duration = duration
        self.volume = volume
        self.endReceived = endReceived
    }
}

/// The receiving side of RFC 4733 (§2.5.2): reports each key press exactly once.
///
/// Packets of one event share a timestamp; a new timestamp starts a new event. A press is
/// reported when its first end packet arrives (repeats of it are ignored), or, if every end
/// packet was lost, when the next event begins or ``flush()`` is called. An event whose start
/// packets were lost is picked up from whichever packet arrives first; a long event's segments
/// (timestamp + 0xFFFF after a 0xFFFF duration) are merged into one press. Packets older than
/// the newest event are ignored.
public struct DTMFReceiver: Sendable {
    private struct PendingEvent {
        var press: DTMFKeyPress
        var segmentTimestamp: RTPTimestamp
        var closedDuration: UInt64
        var segmentDuration: UInt16
    }

    private var pending: PendingEvent?
    /// The segment timestamp of the newest event seen, reported or not.
    private var newestTimestamp: RTPTimestamp?

    /// A receiver that has seen nothing.
    public init() {}

    /// Up to two presses reported by one packet: a previous one whose end was lost, and the
    /// packet's own when it is an end packet.
    public struct Reports: Sequence, Sendable {
        /// The press that was pending when a new event began.
        public var interrupted: DTMFKeyPress?
        /// The press this packet ended.
        public var ended: DTMFKeyPress?

        /// Iterates the reported presses, oldest first.
        public func makeIterator() -> Iterator { Iterator(remaining: (interrupted, ended)) }

        /// Yields the interrupted press, then the ended one.
        public struct Iterator: IteratorProtocol, Sendable {
            var remaining: (DTMFKeyPress?, DTMFKeyPress?)

            /// The next press, or `nil`.
            public mutating func next() -> DTMFKeyPress? {
                if let first = remaining.0 {
                    remaining.0 = nil
                    return first
                }
                defer { remaining.1 = nil }
                return remaining.1
            }
        }

        /// Whether nothing was reported.
        public var isEmpty: Bool { interrupted == nil && ended == nil }
    }

    /// Takes one telephone-event packet and returns the presses it completes.
    public mutating func receive(_ payload: DTMFEventPayload, timestamp: RTPTimestamp) -> Reports {
        var reports = Reports()
        if var event = pending, event.press.event == payload.event {
            if timestamp == event.segmentTimestamp {
                event.segmentDuration = max(event.segmentDuration, payload.duration)
                pending = event
                if payload.isEnd { reports.ended = finish(endReceived: true) }
                return reports
            }
            let continuation = event.segmentTimestamp.advanced(by: Int(DTMFSender.maximumSegmentDuration))
            if event.segmentDuration == UInt16(DTMFSender.maximumSegmentDuration), timestamp == continuation {
                event.closedDuration += UInt64(DTMFSender.maximumSegmentDuration)
                event.segmentTimestamp = timestamp
                event.segmentDuration = payload.duration
                pending = event
                newestTimestamp = timestamp
                if payload.isEnd { reports.ended = finish(endReceived: true) }
                return reports
            }
        }
        if let newest = newestTimestamp, !(newest < timestamp) { return reports }
        reports.interrupted = finish(endReceived: false)
        newestTimestamp = timestamp
        pending = PendingEvent(
            press: DTMFKeyPress(event: payload.event, timestamp: timestamp, duration: 0, volume: payload.volume, endReceived: false),
            segmentTimestamp: timestamp, closedDuration: 0, segmentDuration: payload.duration)
        if payload.isEnd { reports.ended = finish(endReceived: true) }
        return reports
    }

    /// Reports the pending press, if any, as it stands (the stream ended or timed out).
    public mutating func flush() -> DTMFKeyPress? {
        finish(endReceived: false)
    }

    private mutating func finish(endReceived: Bool) -> DTMFKeyPress? {
        guard let event = pending else { return nil }
        pending = nil
        var press = event.press
        press.duration = event.closedDuration + UInt64(event.segmentDuration)
        press.endReceived = endReceived
        return press
    }
}
