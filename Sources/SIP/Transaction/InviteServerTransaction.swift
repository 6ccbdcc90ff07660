public import RTP

/// The INVITE server transaction of RFC 3261 §17.2.1 with RFC 6026's Accepted state, over
/// UDP, as a pure state machine: it answers the INVITE's retransmissions with the last
/// response, retransmits a final response on Timer G until the ACK (a 2xx too, which RFC 3261
/// leaves to the transaction user), and gives up on Timer H.
public struct InviteServerTransaction: Sendable {
    /// RFC 3261 Figure 7's states plus RFC 6026's Accepted.
    public enum State: Sendable, Equatable {
        /// No final response yet.
        case proceeding
        /// A 2xx was sent; retransmitting it until the ACK.
        case accepted
        /// A failure was sent; retransmitting it until the ACK.
        case completed
        /// The ACK for a failure arrived; absorbing ACK retransmissions until Timer I.
        case confirmed
        /// Over.
        case terminated
    }

    /// The INVITE.
    public let request: SIPRequest
    /// Where the machine stands.
    public private(set) var state = State.proceeding
    /// The last response sent, if any.
    public private(set) var lastResponse: SIPResponse?
    private let timers: TransactionTimers
    private var timerG: RetransmissionTimer?
    private var timerH: MediaTime?
    private var timerI: MediaTime?

    /// A transaction for a newly received `request`.
    public init(request: SIPRequest, timers: TransactionTimers = TransactionTimers()) {
        self.request = request
        self.timers = timers
    }

    /// Sends `response` (provisional or final) for the INVITE.
    public mutating func respond(_ response: SIPResponse, now: MediaTime) -> [TransactionAction] {
        guard state == .proceeding else { return [] }
        lastResponse = response
        if !response.isProvisional {
            state = response.statusCode < 300 ? .accepted : .completed
            timerG = RetransmissionTimer(start: now, first: timers.t1, cap: timers.t2)
            timerH = now + timers.timeout
        }
        return [.send(.response(response))]
    }

    /// A request matched to this transaction arrived: the INVITE again, or its ACK.
    public mutating func receive(_ request: SIPRequest, now: MediaTime) -> [TransactionAction] {
        if request.method == "ACK" {
            switch state {
            case .completed:
                state = .confirmed
                timerG = nil
                timerI = now + timers.t4
                return []
            case .accepted:
                state = .terminated
                return [.terminated]
            default:
                return []
            }
        }
        guard state == .proceeding || state == .accepted || state == .completed, let lastResponse else { return [] }
        return [.send(.response(lastResponse))]
    }

    /// Advances the timers to `now`.
    public mutating func tick(now: MediaTime) -> [TransactionAction] {
        switch state {
        case .accepted, .completed:
            if let timerH, now >= timerH {
                state = .terminated
                return [.timedOut, .terminated]
            }
            if var timer = timerG, let lastResponse {
                let fired = timer.fires(at: now)
                timerG = timer
                if fired { return [.send(.response(lastResponse))] }
            }
            return []
        case .confirmed:
            guard let timerI, now >= timerI else { return [] }
            state = .terminated
            return [.terminated]
        case .proceeding, .terminated:
            return []
        }
    }
}
