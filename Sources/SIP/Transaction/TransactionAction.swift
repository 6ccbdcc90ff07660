public import RTP

/// What a transaction asks of its owner after an input or a tick.
public enum TransactionAction: Sendable, Equatable {
    /// Put this message on the wire (first transmission or retransmission).
    case send(SIPMessage)
    /// Hand this response to the transaction user (client transactions).
    case deliver(SIPResponse)
    /// Timer B, F or H fired: no final response or no ACK came in time.
    case timedOut
    /// The transaction is over; forget it.
    case terminated
}

/// The RFC 3261 §17 timer values; Timer A/E start at `t1` and double up to `t2` (E and G),
/// B, F, H and J last 64·T1, D 32 s, I and K last T4 (all for UDP).
public struct TransactionTimers: Sendable, Equatable {
    /// The round-trip estimate T1. Default 500 ms.
    public var t1: MediaTime
    /// The longest retransmission interval T2 for non-INVITE requests and INVITE responses. Default 4 s.
    public var t2: MediaTime
    /// How long a message may stay in the network, T4. Default 5 s.
    public var t4: MediaTime

    /// Timers with the RFC 3261 defaults, overridden by what is given.
    public init(t1: MediaTime = .milliseconds(500), t2: MediaTime = MediaTime(seconds: 4), t4: MediaTime = MediaTime(seconds: 5)) {
        self.t1 = t1
        self.t2 = t2
        self.t4 = t4
    }

    /// 64·T1, the transaction timeout (Timers B, F, H, J).
    public var timeout: MediaTime { MediaTime(nanoseconds: t1.nanoseconds &* 64) }
    /// Timer D for UDP: at least 32 s.
    public var timerD: MediaTime { MediaTime(seconds: 32) }
}

/// A retransmission timer whose interval doubles from T1, optionally capped at T2.
struct RetransmissionTimer: Sendable, Equatable {
    private(set) var deadline: MediaTime
    private var interval: MediaTime
    private let cap: MediaTime?

    init(start: MediaTime, first: MediaTime, cap: MediaTime?) {
        interval = first
        deadline = start + first
        self.cap = cap
    }

    /// Whether it fired at `now`; when it did, the next deadline is set one doubled interval on.
    mutating func fires(at now: MediaTime) -> Bool {
        guard now >= deadline else { return false }
        var doubled = interval.nanoseconds &* 2
        if let cap { doubled = min(doubled, cap.nanoseconds) }
        interval = MediaTime(nanoseconds: doubled)
        deadline = now + interval
        return true
    }
}
