import RTP

/// Raises ``MediaSessionEvent/noMedia(seconds:)`` once when no RTP has arrived for the
/// timeout while the peer should be sending, and ``MediaSessionEvent/mediaResumed`` when it
/// comes back. The silence counts from the last packet, or from when listening began.
struct NoMediaWatchdog {
    private let timeoutSeconds: Double
    private var listeningSince: MediaTime
    private var reported = false

    init(timeoutSeconds: Double, now: MediaTime) {
        self.timeoutSeconds = timeoutSeconds
        listeningSince = now
    }

    mutating func check(lastMedia: MediaTime?, expecting: Bool, now: MediaTime) -> MediaSessionEvent? {
        guard expecting else {
            listeningSince = now
            reported = false
            return nil
        }
        let since = max(lastMedia ?? listeningSince, listeningSince)
        let silence = (now - since).seconds
        if silence >= timeoutSeconds {
            guard !reported else { return nil }
            reported = true
            return .noMedia(seconds: silence)
        }
        guard reported else { return nil }
        reported = false
        return .mediaResumed
    }
}
