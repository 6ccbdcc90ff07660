public import RTP

/// The non-INVITE client transaction of RFC 3261 §17.1.2 over UDP (BYE, CANCEL, REGISTER,
/// OPTIONS), as a pure state machine: Timer E retransmits (doubling to T2, or every T2 once a
/// provisional response came), Timer F gives up, Timer K absorbs retransmitted finals.
public struct NonInviteClientTransaction: Sendable {
    /// RFC 3261 Figure 6's states.
    public enum State: Sendable, Equatable {
        /// Sent; no response yet.
        case trying
        /// A provisional response arrived.
        case proceeding
        /// A final response arrived; waiting Timer K.
        case completed
        /// Over.
        case terminated
    }

    /// The request.
    public let request: SIPRequest
    /// Where the machine stands.
    public private(set) var state = State.trying
    private let timers: TransactionTimers
    private var timerE: RetransmissionTimer
    private let timerF: MediaTime
    private var timerK: MediaTime?

    /// A transaction for `request`, started at `now`; send it with ``start()``.
    public init(request: SIPRequest, now: MediaTime, timers: TransactionTimers = TransactionTimers()) {
        self.request = request
        self.timers = timers
        timerE = RetransmissionTimer(start: now, first: timers.t1, cap: timers.t2)
        timerF = now + timers.timeout
    }

    /// The first transmission.
    public func start() -> [TransactionAction] { [.send(.request(request))] }

    /// A response matched to this transaction arrived.
    public mutating func receive(_ response: SIPResponse, now: MediaTime) -> [TransactionAction] {
        switch state {
        case .trying, .proceeding:
            if response.isProvisional {
                if state == .trying { timerE = RetransmissionTimer(start: now, first: timers.t2, cap: timers.t2) }
                state = .proceeding
                return [.deliver(response)]
            }
            state = .completed
            timerK = now + timers.t4
            return [.deliver(response)]
        case .completed, .terminated:
            return []
        }
    }

    /// Advances the timers to `now`.
    public mutating func tick(now: MediaTime) -> [TransactionAction] {
        switch state {
        case .trying, .proceeding:
            if now >= timerF {
                state = .terminated
                return [.timedOut, .terminated]
            }
            return timerE.fires(at: now) ? [.send(.request(request))] : []
        case .completed:
            guard let timerK, now >= timerK else { return [] }
            state = .terminated
            return [.terminated]
        case .terminated:
            return []
        }
    }
}
