public import RTP

/// The INVITE client transaction of RFC 3261 §17.1.1 over UDP, as a pure state machine: it
/// sends the INVITE, retransmits it on Timer A, gives up on Timer B, hands responses to its
/// user, and ACKs a failure itself (re-ACKing retransmitted failures until Timer D).
public struct InviteClientTransaction: Sendable {
    /// RFC 3261 Figure 5's states.
    public enum State: Sendable, Equatable {
        /// The INVITE was sent; no response yet.
        case calling
        /// A provisional response arrived.
        case proceeding
        /// A failure arrived and was ACKed; absorbing retransmissions until Timer D.
        case completed
        /// Over.
        case terminated
    }

    /// The INVITE.
    public let request: SIPRequest
    /// Where the machine stands.
    public private(set) var state = State.calling
    private let timers: TransactionTimers
    private var timerA: RetransmissionTimer
    private var timerB: MediaTime
    private var timerD: MediaTime?
    private var ack: SIPRequest?

    /// A transaction for `request`, started at `now`; send the INVITE with ``start()``.
    public init(request: SIPRequest, now: MediaTime, timers: TransactionTimers = TransactionTimers()) {
        self.request = request
        self.timers = timers
        timerA = RetransmissionTimer(start: now, first: timers.t1, cap: nil)
        timerB = now + timers.timeout
    }

    /// The first transmission.
    public func start() -> [TransactionAction] { [.send(.request(request))] }

    /// A response matched to this transaction arrived.
    public mutating func receive(_ response: SIPResponse, now: MediaTime) -> [TransactionAction] {
        switch state {
        case .calling, .proceeding:
            if response.isProvisional {
                state = .proceeding
                return [.deliver(response)]
            }
            if response.statusCode < 300 {
                // The transaction user ACKs a 2xx itself (it belongs to the dialog).
                state = .terminated
                return [.deliver(response), .terminated]
            }
            let ack = Self.acknowledgement(of: request, response: response)
            self.ack = ack
            state = .completed
            timerD = now + timers.timerD
            return [.send(.request(ack)), .deliver(response)]
        case .completed:
            guard !response.isProvisional, response.statusCode >= 300, let ack else { return [] }
            return [.send(.request(ack))]
        case .terminated:
            return []
        }
    }

    /// Advances the timers to `now`.
    public mutating func tick(now: MediaTime) -> [TransactionAction] {
        switch state {
        case .calling:
            if now >= timerB {
                state = .terminated
                return [.timedOut, .terminated]
            }
            return timerA.fires(at: now) ? [.send(.request(request))] : []
        case .proceeding:
            return []
        case .completed:
            guard let timerD, now >= timerD else { return [] }
            state = .terminated
            return [.terminated]
        case .terminated:
            return []
        }
    }

    /// The ACK for a non-2xx final response (RFC 3261 §17.1.1.3): the INVITE's Request-URI,
    /// top Via, From, Call-ID and Route, the response's To, and CSeq with method ACK.
    static func acknowledgement(of invite: SIPRequest, response: SIPResponse) -> SIPRequest {
        var headers = SIPHeaders()
        if let via = invite.headers.values("Via").first { headers.add("Via", via) }
        headers.add("Max-Forwards", "70")
        for name in ["From", "Call-ID"] { if let value = invite.headers[name] { headers.add(name, value) } }
        headers.add("To", response.headers["To"] ?? invite.headers["To"] ?? "")
        headers.add("CSeq", "\(invite.headers.cseq?.number ?? 1) ACK")
        for route in invite.headers.values("Route") { headers.add("Route", route) }
        return SIPRequest(method: "ACK", uri: invite.uri, headers: headers)
    }
}
