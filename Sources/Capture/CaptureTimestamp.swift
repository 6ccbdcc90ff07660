/// The moment a frame was captured, as nanoseconds since the Unix epoch (1970-01-01 00:00:00 UTC).
///
/// Files are opened with nanosecond precision, so microsecond files keep their exact value and
/// nanosecond files (pcap `a1b23c4d`, pcapng with `if_tsresol` 9) lose nothing.
public struct CaptureTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch; negative before 1970.
    public var nanosecondsSinceEpoch: Int64

    /// A timestamp from nanoseconds since the Unix epoch.
    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// A timestamp from whole seconds and a nanosecond part, saturating at the limits of `Int64`
    /// nanoseconds (about the years 1678 and 2262) rather than trapping on absurd inputs.
    public init(seconds: Int64, nanoseconds: Int64) {
        let (scaled, scaleOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, sumOverflow) = scaled.addingReportingOverflow(nanoseconds)
        if scaleOverflow || sumOverflow {
            nanosecondsSinceEpoch = seconds < 0 ? .min : .max
        } else {
            nanosecondsSinceEpoch = total
        }
    }

    /// Whole seconds since the epoch, rounded towards negative infinity.
    public var seconds: Int64 {
        let (quotient, remainder) = nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The nanoseconds past ``seconds``, in `0 ..< 1_000_000_000`.
    public var nanosecondsOfSecond: Int64 {
        let remainder = nanosecondsSinceEpoch % 1_000_000_000
        return remainder < 0 ? remainder + 1_000_000_000 : remainder
    }

    /// Seconds since the epoch as a `Double` (sub-microsecond precision is lost for present-day dates).
    public var secondsSinceEpoch: Double {
        Double(nanosecondsSinceEpoch) / 1e9
    }

    /// The time from `earlier` to this timestamp in nanoseconds (wrapping, never trapping).
    public func nanoseconds(since earlier: CaptureTimestamp) -> Int64 {
        nanosecondsSinceEpoch &- earlier.nanosecondsSinceEpoch
    }

    /// Orders timestamps chronologically.
    public static func < (lhs: CaptureTimestamp, rhs: CaptureTimestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }

    /// Seconds since the epoch with nine decimals, as tshark's `frame.time_epoch` prints them.
    public var description: String {
        let fraction = String(nanosecondsOfSecond)
        return "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }
}
