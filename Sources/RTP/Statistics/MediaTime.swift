/// A point in time or a span of time, in whole nanoseconds.
///
/// Packet arrival times, round-trip times and intervals use it. The origin of a point in time
/// is the caller's choice (a monotonic clock for live streams, the capture's epoch for a pcap):
/// only differences between two values on the same clock are meaningful. 64 bits of
/// nanoseconds span ±292 years.
public struct MediaTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value in nanoseconds.
    public var nanoseconds: Int64

    /// A time of `nanoseconds` nanoseconds.
    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// A time of `seconds` seconds, rounded to the nanosecond (saturating beyond ±292 years).
    @inlinable
    public init(seconds: Double) {
        let scaled = (seconds * 1e9).rounded()
        if scaled >= 9.2e18 {
            nanoseconds = .max
        } else if scaled <= -9.2e18 {
            nanoseconds = .min
        } else if scaled.isNaN {
            nanoseconds = 0
        } else {
            nanoseconds = Int64(scaled)
        }
    }

    /// A time of `milliseconds` milliseconds.
    @inlinable
    public static func milliseconds(_ milliseconds: Double) -> MediaTime {
        MediaTime(seconds: milliseconds / 1000)
    }

    /// Zero.
    public static let zero = MediaTime(nanoseconds: 0)

    /// The value in seconds.
    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }
    /// The value in milliseconds.
    @inlinable public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    /// The later time minus the earlier one (wrapping rather than trapping on overflow).
    @inlinable
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// A time shifted by a span (wrapping rather than trapping on overflow).
    @inlinable
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    /// Orders by value.
    @inlinable
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The value in milliseconds, e.g. `20.0 ms`.
    public var description: String { "\(milliseconds) ms" }
}
