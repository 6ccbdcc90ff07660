public import RTP

/// The non-INVITE server transaction of RFC 3261 §17.2.2 over UDP: request retransmissions
/// get the last response again; Timer J ends it 64·T1 after the final response.
public struct NonInviteServerTransaction: Sendable {
    /// The request.
    public let request: SIPRequest
    /// The last response sent, if any.
    public private(set) var lastResponse: SIPResponse?
    /// Whether it is over.
    public private(set) var isTerminated = false
    private let timers: TransactionTimers
    private var timerJ: MediaTime?

    /// A transaction for a newly received `request`.
    public init(request: SIPRequest, timers: TransactionTimers = TransactionTimers()) {
        self.request = request
        self.timers = timers
    }

    /// Sends `response`; a final one starts Timer J. Nothing after a final response.
    public mutating func respond(_ response: SIPResponse, now: MediaTime) -> [TransactionAction] {
        guard timerJ == nil, !isTerminated else { return [] }
        lastResponse = response
        if !response.isProvisional { timerJ = now + timers.timeout }
        return [.send(.response(response))]
    }

    /// The request arrived again: the last response goes again.
    public func receiveRetransmission() -> [TransactionAction] {
        guard !isTerminated, let lastResponse else { return [] }
        return [.send(.response(lastResponse))]
    }

    /// Advances the timers to `now`.
    public mutating func tick(now: MediaTime) -> [TransactionAction] {
        guard !isTerminated, let timerJ, now >= timerJ else { return [] }
        isTerminated = true
        return [.terminated]
    }
}
