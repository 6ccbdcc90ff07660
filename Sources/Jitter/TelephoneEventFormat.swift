/// An RFC 4733 telephone-event payload type the buffer receives beside the audio, and the clock
/// its event durations count in (the format's own rate: 8000 beside Opus for many peers; the
/// events' timestamps are on the audio stream's clock).
public struct TelephoneEventFormat: Sendable, Equatable {
    /// The RTP payload type of the events.
    public var payloadType: UInt8
    /// The clock rate of the format, in Hz: the unit of an event's duration.
    public var clockRate: Int

    /// A telephone-event format on `payloadType` whose durations count at `clockRate` Hz.
    public init(payloadType: UInt8, clockRate: Int) {
        self.payloadType = payloadType
        self.clockRate = clockRate
    }
}
