import RTP

/// The NTP timestamps of the last few RTCP reports we sent (SR, or XR receiver reference time)
/// with the local time each left, so that an echo of one (LSR/DLSR of a report block, LRR/DLRR
/// of an XR DLRR sub-block) gives the round trip on the local monotonic clock alone
/// (RFC 3550 §6.4.1, RFC 3611 §4.5).
struct RoundTripClock: Sendable {
    /// How many sent reports are remembered; an echo of an older one gives no RTT.
    static let capacity = 8

    /// One sent report: the middle 32 bits of its NTP timestamp, and when it left.
    private struct SentReport {
        var middle32: UInt32
        var time: MediaTime
    }

    private var sent = [SentReport](repeating: SentReport(middle32: 0, time: .zero), count: capacity)
    private var next = 0

    /// Notes a report we sent at local time `time` carrying `timestamp`.
    mutating func recordSent(_ timestamp: NTPTimestamp, at time: MediaTime) {
        sent[next] = SentReport(middle32: timestamp.middle32, time: time)
        next = (next + 1) % Self.capacity
    }

    /// The round trip for an echo of `lastReport` held `delay` (1/65536 s units) by the far end
    /// and arriving at `arrival`; `nil` when `lastReport` is 0, is not one of ours, or the
    /// result would be negative.
    func roundTrip(lastReport: UInt32, delay: UInt32, arrival: MediaTime) -> MediaTime? {
        guard lastReport != 0 else { return nil }
        for index in 0..<sent.count where sent[index].middle32 == lastReport {
            let roundTrip = arrival - sent[index].time - CompactNTP.time(ofUnits: delay)
            return roundTrip.nanoseconds >= 0 ? roundTrip : nil
        }
        return nil
    }
}
