import Foundation

// The CLI's call durations, deadlines and waits run on the monotonic clock: a wall-clock step
// during a call (NTP, a user setting the time) must not end it early or hold it open.

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

extension Thread {
    /// Blocks the calling thread until `instant` on the monotonic clock (at once if it has passed).
    static func sleep(until instant: ContinuousClock.Instant) {
        let left = (instant - ContinuousClock.now).seconds
        if left > 0 { sleep(forTimeInterval: left) }
    }
}
