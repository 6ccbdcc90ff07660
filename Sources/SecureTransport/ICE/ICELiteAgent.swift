import RTP

/// Why a connectivity check was refused.
public enum ICECheckRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a well-formed STUN message.
    case malformed(STUNError)
    /// FINGERPRINT absent or wrong.
    case badFingerprint
    /// USERNAME absent, or not `our-ufrag:their-ufrag`.
    case wrongUsername(String?)
    /// MESSAGE-INTEGRITY absent or not computed with our password.
    case badMessageIntegrity

    /// A sentence saying why.
    public var description: String {
        switch self {
        case let .malformed(error): "connectivity check refused: \(error)"
        case .badFingerprint: "connectivity check refused: bad FINGERPRINT"
        case let .wrongUsername(username): "connectivity check refused: unknown USERNAME \(username ?? "(none)")"
        case .badMessageIntegrity: "connectivity check refused: bad MESSAGE-INTEGRITY (wrong ICE password)"
        }
    }
}

/// Why an ICE-lite agent gave up; each ends the call.
public enum ICEFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connectivity check nominated a pair in time.
    case noNomination(seconds: Double)
    /// The peer's consent (its authenticated checks on the selected pair) lapsed (RFC 7675 §5.1).
    case consentExpired(seconds: Double)

    /// A sentence saying why.
    public var description: String {
        switch self {
        case let .noNomination(seconds): "ICE: no candidate pair nominated within \(seconds) s"
        case let .consentExpired(seconds): "ICE: consent expired (no authenticated check for \(seconds) s)"
        }
    }
}

/// What a received STUN datagram led to.
public enum ICECheckOutcome: Equatable, Sendable {
    /// A valid Binding request: send `response` back to its source. `nominated` says whether it
    /// carried USE-CANDIDATE and so selected its source as the media target.
    case answered(response: [UInt8], nominated: Bool)
    /// A refused request: send `response` (an error response) when present, count the reason.
    case refused(ICECheckRejection, response: [UInt8]?)
    /// Not a request for us to answer (a response, an indication): nothing to do.
    case ignored
}

/// The ICE-lite side of a call (RFC 8445 §2.5): it has host candidates only, never checks, and
/// answers the full agent's Binding requests with short-term credentials (RFC 8445 §7.3). The
/// pair the peer nominates (USE-CANDIDATE) becomes the media target; the peer's continuing
/// authenticated checks on it are its consent (RFC 7675), which lapses after ``consentTimeout``.
///
/// A pure state machine: datagrams and times in, responses and state out.
public struct ICELiteAgent: Sendable {
    /// Where the agent is.
    public enum State: Equatable, Sendable {
        /// Waiting for a nominating check.
        case waiting
        /// A pair is nominated: media goes to `target`.
        case connected(target: TransportAddress)
        /// The agent gave up.
        case failed(ICEFailure)
    }

    /// Our credentials, for `a=ice-ufrag`/`a=ice-pwd`.
    public let local: ICECredentials
    /// The peer's credentials from its SDP.
    public let remote: ICECredentials
    /// How long consent lasts without a fresh authenticated check (RFC 7675: 30 s).
    public let consentTimeout: MediaTime
    /// How long to wait for a nomination from ``start(now:)``.
    public let nominationTimeout: MediaTime
    /// Where the agent is.
    public private(set) var state: State = .waiting
    /// Valid requests answered.
    public private(set) var checksAnswered = 0
    /// Requests refused, for any reason.
    public private(set) var checksRefused = 0
    private var startedAt: MediaTime?
    private var lastConsent: MediaTime?

    /// An agent with `local` credentials expecting checks signed for the peer's `remote` ones.
    public init(
        local: ICECredentials = .random(), remote: ICECredentials,
        consentTimeout: MediaTime = MediaTime(seconds: 30), nominationTimeout: MediaTime = MediaTime(seconds: 30)
    ) {
        self.local = local
        self.remote = remote
        self.consentTimeout = consentTimeout
        self.nominationTimeout = nominationTimeout
    }

    /// The media target once a pair is nominated.
    public var target: TransportAddress? {
        if case let .connected(target) = state { return target }
        return nil
    }

    /// Starts the nomination deadline at `now` (when the answer is sent).
    public mutating func start(now: MediaTime) {
        if startedAt == nil { startedAt = now }
    }

    /// Takes one STUN datagram that arrived from `source` at `now`.
    public mutating func receive(_ datagram: UnsafeRawBufferPointer, from source: TransportAddress, now: MediaTime) -> ICECheckOutcome {
        if case .failed = state { return .ignored }
        let message: STUNMessage
        do {
            message = try STUNMessage(parsing: datagram)
        } catch {
            checksRefused += 1
            return .refused(.malformed(error), response: nil)
        }
        guard message.type == .bindingRequest else { return .ignored }
        guard message.hasValidFingerprint else { return refuse(.badFingerprint, message, code: 400, reason: "Bad Request") }
        let username = message.username
        guard username == "\(local.usernameFragment):\(remote.usernameFragment)" else {
            return refuse(.wrongUsername(username), message, code: 401, reason: "Unauthorized")
        }
        guard message.hasValidIntegrity(key: local.key) else {
            return refuse(.badMessageIntegrity, message, code: 401, reason: "Unauthorized")
        }
        checksAnswered += 1
        let nominated = message.hasUseCandidate
        if nominated { state = .connected(target: source) }
        if target == source { lastConsent = now }
        var response = STUNMessageBuilder(type: .bindingSuccess, transactionID: message.transactionID)
        response.appendXORMappedAddress(source)
        return .answered(response: response.finish(integrityKey: local.key, fingerprint: true), nominated: nominated)
    }

    /// Checks the deadlines at `now`: no nomination within ``nominationTimeout`` of
    /// ``start(now:)``, or no consent within ``consentTimeout`` of the last, fails the agent.
    public mutating func poll(now: MediaTime) {
        switch state {
        case .failed:
            return
        case .waiting:
            if let startedAt, now - startedAt >= nominationTimeout {
                state = .failed(.noNomination(seconds: nominationTimeout.seconds))
            }
        case .connected:
            if let lastConsent, now - lastConsent >= consentTimeout {
                state = .failed(.consentExpired(seconds: consentTimeout.seconds))
            }
        }
    }

    private mutating func refuse(_ rejection: ICECheckRejection, _ request: STUNMessage, code: Int, reason: String) -> ICECheckOutcome {
        checksRefused += 1
        var response = STUNMessageBuilder(type: .bindingError, transactionID: request.transactionID)
        response.appendErrorCode(code, reason: reason)
        return .refused(rejection, response: response.finish(integrityKey: nil, fingerprint: true))
    }
}
