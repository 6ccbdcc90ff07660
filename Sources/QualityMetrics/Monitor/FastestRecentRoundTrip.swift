import RTP

/// The fastest of the latest few round trips: the path's delay without the queueing that
/// delayed some of its reports.
///
/// The jitter buffer's delay is measured from the fastest packet, so it already holds the
/// network's queueing; adding half the *latest* RTT as well would count that queueing twice
/// in the one-way estimate. Half the fastest recent RTT is the path's propagation part, and
/// a path that slows for good shows after ``capacity`` reports.
public struct FastestRecentRoundTrip: Sendable {
    /// How many of the latest round trips the minimum is taken over.
    public static let capacity = 8

    private var samples: [MediaTime] = []
    private var next = 0

    /// None yet.
    public init() {}

    /// Adds a measured round trip, replacing the oldest once ``capacity`` are held.
    public mutating func record(_ roundTrip: MediaTime) {
        if samples.count < Self.capacity {
            samples.append(roundTrip)
        } else {
            samples[next] = roundTrip
        }
        next = (next + 1) % Self.capacity
    }

    /// The fastest of the held round trips; `nil` before the first.
    public var fastest: MediaTime? { samples.min() }
}
