/// Where a ``Call`` stands, as the seeds' SDKs report it.
public enum CallState: Sendable, Equatable, CustomStringConvertible {
    /// Outgoing: the INVITE is on its way (or was answered 100 Trying). Incoming: not yet
    /// answered and not yet ringing.
    case calling
    /// The callee is alerted (180), or, for an incoming call, we are ringing; `earlyMedia` when
    /// a 183 with SDP came.
    case ringing(earlyMedia: Bool)
    /// Answered; media flows both ways.
    case connected
    /// We put the call on hold.
    case held
    /// The peer put us on hold (it offered sendonly or inactive).
    case remotelyHeld
    /// Over, for `reason`.
    case ended(CallEndReason)

    /// One word or two: `calling`, `ringing`, `early-media`, `connected`, `held`, `remotely-held`, `ended`.
    public var description: String {
        switch self {
        case .calling: "calling"
        case .ringing(let early): early ? "early-media" : "ringing"
        case .connected: "connected"
        case .held: "held"
        case .remotelyHeld: "remotely-held"
        case .ended: "ended"
        }
    }

    /// Whether the call is over.
    public var isEnded: Bool {
        if case .ended = self { return true }
        return false
    }
}

/// Why a ``Call`` ended.
public enum CallEndReason: Sendable, Equatable, CustomStringConvertible {
    /// We hung up (BYE, or CANCEL before an answer).
    case localHangUp
    /// The peer hung up (BYE, or CANCEL of a call ringing here).
    case remoteHangUp
    /// The callee was busy (486, 600).
    case busy
    /// The callee declined (603), or we rejected an incoming call.
    case rejected
    /// No answer or no response in time (408, Timer B, the ring timeout).
    case timeout
    /// Any other failure: the final status (0 when no SIP status applies, such as a failed
    /// media negotiation or an unreachable peer), and why.
    case failed(status: Int, reason: String)

    /// `local-hang-up`, `remote-hang-up`, `busy`, `rejected`, `timeout`, `failed(488 Not Acceptable Here)`.
    public var description: String {
        switch self {
        case .localHangUp: "local-hang-up"
        case .remoteHangUp: "remote-hang-up"
        case .busy: "busy"
        case .rejected: "rejected"
        case .timeout: "timeout"
        case .failed(let status, let reason): "failed(\(status) \(reason))"
        }
    }

    /// The reason a final failure response gives an outgoing call.
    static func forFailure(_ response: SIPResponse) -> CallEndReason {
        switch response.statusCode {
        case 486, 600: .busy
        case 603: .rejected
        case 408, 480: .timeout
        default: .failed(status: response.statusCode, reason: response.reason)
        }
    }
}
