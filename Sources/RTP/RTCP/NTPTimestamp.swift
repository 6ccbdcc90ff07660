/// A 64-bit NTP timestamp (RFC 5905): seconds since 1 January 1900 in the high 32 bits, the
/// fraction of a second in the low 32 bits. RTCP sender reports carry it (RFC 3550 §6.4.1).
public struct NTPTimestamp: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit value on the wire.
    public var rawValue: UInt64

    /// Seconds from 1900 to the Unix epoch (1970).
    public static let unixEpochOffsetSeconds: UInt64 = 2_208_988_800

    /// Wraps a value from the wire.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Assembles the value from its seconds and fraction words.
    public init(seconds: UInt32, fraction: UInt32) {
        rawValue = UInt64(seconds) << 32 | UInt64(fraction)
    }

    /// The NTP time of a Unix time (nanoseconds since 1970, the ``MediaTime`` origin of wall
    /// clocks). Times from 2036 on wrap into NTP era 1, as on the wire.
    public init(unixTime: MediaTime) {
        let (wholeSeconds, nanoseconds) = unixTime.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let floorSeconds = nanoseconds < 0 ? wholeSeconds - 1 : wholeSeconds
        let floorNanoseconds = nanoseconds < 0 ? nanoseconds + 1_000_000_000 : nanoseconds
        let seconds = UInt64(bitPattern: floorSeconds) &+ Self.unixEpochOffsetSeconds
        let fraction = (UInt64(floorNanoseconds) << 32 + 500_000_000) / 1_000_000_000
        rawValue = (seconds << 32) &+ fraction
    }

    /// The whole seconds since 1900 (modulo 2^32).
    public var seconds: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    /// The fraction of a second, in units of 2^-32 s.
    public var fraction: UInt32 { UInt32(truncatingIfNeeded: rawValue) }
    /// The middle 32 bits (16 bits of seconds, 16 of fraction): the LSR and DLRR `LRR` fields.
    public var middle32: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 16) }

    /// The Unix time (nanoseconds since 1970). Seconds values below 2^31 are taken to be in
    /// NTP era 1 (2036–2172), as RFC 4330 §3 suggests.
    public var unixTime: MediaTime {
        var seconds = Int64(self.seconds)
        if seconds < 0x8000_0000 { seconds += 0x1_0000_0000 }
        seconds -= Int64(Self.unixEpochOffsetSeconds)
        let nanoseconds = (Int64(fraction) * 1_000_000_000 + 0x8000_0000) >> 32
        return MediaTime(nanoseconds: seconds * 1_000_000_000 + nanoseconds)
    }

    /// `seconds.fraction` in hexadecimal.
    public var description: String {
        "NTP " + String(seconds, radix: 16) + "." + String(fraction, radix: 16)
    }
}

/// A span of time in the 1/65536-second units of RTCP's compact NTP fields (LSR, DLSR, LRR, DLRR).
public enum CompactNTP {
    /// `time` in units of 1/65536 s, rounded and clamped to 32 bits (negative spans give 0).
    public static func units(of time: MediaTime) -> UInt32 {
        guard time.nanoseconds > 0 else { return 0 }
        let units = (Double(time.nanoseconds) * 65536 / 1e9).rounded()
        return units >= Double(UInt32.max) ? .max : UInt32(units)
    }

    /// `units` 1/65536-second units as a time.
    public static func time(ofUnits units: UInt32) -> MediaTime {
        MediaTime(nanoseconds: (Int64(units) * 1_000_000_000 + 32768) >> 16)
    }

    /// The round-trip time of RFC 3550 §6.4.1 (and RFC 3611 §4.5): `arrival` − `lastReport` −
    /// `delaySinceLastReport`, all in compact NTP form.
    ///
    /// - Parameters:
    ///   - arrival: when the report block arrived, as an NTP time on the clock that stamped
    ///     the report it echoes (its middle 32 bits are used).
    ///   - lastReport: the LSR (or LRR) field: the middle 32 bits of our report's NTP time.
    ///   - delaySinceLastReport: the DLSR (or DLRR) field.
    /// - Returns: the round trip, or `nil` when no report was echoed (`lastReport` 0) or the
    ///   result would be negative by more than ``delayGranularityUnits`` (the clocks
    ///   disagree). Within that margin the round trip is zero: see ``delayGranularityUnits``.
    public static func roundTripTime(
        arrival: NTPTimestamp, lastReport: UInt32, delaySinceLastReport: UInt32
    ) -> MediaTime? {
        guard lastReport != 0 else { return nil }
        let sinceReport = arrival.middle32 &- lastReport
        guard sinceReport < 0x8000_0000, sinceReport &+ delayGranularityUnits >= delaySinceLastReport else { return nil }
        return time(ofUnits: sinceReport > delaySinceLastReport ? sinceReport - delaySinceLastReport : 0)
    }

    /// How far (2 ms, in 1/65536 s) a peer's DLSR may exceed the time since our report and
    /// still give a round trip, of zero. Peers measure DLSR on coarse clocks: libre (baresip's
    /// library) counts it in whole milliseconds, so it can claim up to 1 ms more than it held
    /// the report, more than a whole loopback round trip; libre clamps its own negative
    /// round trips to zero the same way.
    public static let delayGranularityUnits: UInt32 = 131
}
