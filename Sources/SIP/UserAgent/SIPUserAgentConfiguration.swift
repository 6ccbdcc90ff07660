public import MediaSession
import RTP

/// Everything a ``SIPUserAgent`` needs; every property has a documented default.
public struct SIPUserAgentConfiguration: Sendable {
    /// The address and port the SIP socket binds to. Default 127.0.0.1 with a system-chosen
    /// port; set a real interface's address (and 5060) for calls beyond this host.
    public var localAddress: SocketAddress
    /// The user part of our address of record and Contact. Default `mediabench`.
    public var userName: String
    /// The display name in From, if any. Default none.
    public var displayName: String?
    /// The `User-Agent` and `Server` header value. Default `mediabench SIP`.
    public var product: String
    /// Credentials for 401/407 digest challenges, if any. Default none.
    public var credentials: DigestCredentials?
    /// The transaction timers. Default RFC 3261's (T1 500 ms, T2 4 s, T4 5 s).
    public var timers: TransactionTimers
    /// Seconds before an unanswered outgoing INVITE is cancelled (ended as a timeout). Default 60.
    public var ringTimeoutSeconds: Double

    /// A configuration with the documented defaults, overridden by whatever is passed.
    public init(
        localAddress: SocketAddress = .loopbackIPv4(),
        userName: String = "mediabench",
        displayName: String? = nil,
        product: String = "mediabench SIP",
        credentials: DigestCredentials? = nil,
        timers: TransactionTimers = TransactionTimers(),
        ringTimeoutSeconds: Double = 60
    ) {
        self.localAddress = localAddress
        self.userName = userName
        self.displayName = displayName
        self.product = product
        self.credentials = credentials
        self.timers = timers
        self.ringTimeoutSeconds = ringTimeoutSeconds
    }
}

/// What a user agent counted of the datagrams it received.
public struct SIPCounters: Sendable, Equatable {
    /// Datagrams that parsed as SIP messages.
    public var messagesReceived = 0
    /// Datagrams that were not SIP messages (or lacked mandatory headers), dropped.
    public var malformedDropped = 0
    /// Requests that did not parse but were readable enough to answer, answered 400 Bad
    /// Request (see ``SIPResponse/init(badRequest:error:)``).
    public var badRequestsAnswered = 0
    /// Requests with a method we do not implement, answered 501.
    public var unknownMethodsAnswered = 0
    /// Responses that matched no transaction, dropped.
    public var strayResponsesDropped = 0
    /// Requests for a dialog or transaction we do not have, answered 481.
    public var unmatchedRequestsAnswered = 0

    /// All zero.
    public init() {}
}
