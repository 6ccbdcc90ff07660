import Foundation
public import MediaSession
import Locking
import RTP

/// A minimal RFC 3261 user agent over UDP: it dials and answers calls (``Call``), answers
/// OPTIONS, registers with a registrar and keeps the binding fresh, answers digest challenges,
/// and refuses what it does not implement (501) or cannot match (481). A malformed request
/// that can still be answered gets 400 Bad Request; other malformed datagrams are dropped.
/// Both are counted.
///
/// One socket, one I/O thread for receiving and one timer thread (every 10 ms) for the
/// transactions' retransmissions and timeouts. Call ``shutdown()`` when done.
public final class SIPUserAgent: Sendable {
    /// The methods we implement, for Allow headers.
    public static let allowedMethods = "INVITE, ACK, CANCEL, BYE, OPTIONS"

    /// The configuration the agent was made with.
    public let configuration: SIPUserAgentConfiguration
    /// Calls that arrive, ringing: ``Call/answer(media:)`` or ``Call/reject(busy:)`` each.
    public let incomingCalls: AsyncStream<Call>

    private let transport: SIPTransport
    private let incomingContinuation: AsyncStream<Call>.Continuation
    private let inbox: PThreadLock<(@Sendable ([UInt8], SocketAddress) -> Void)?>
    private let calls = PThreadLock<[String: Call]>([:])
    private let counterState = PThreadLock(SIPCounters())
    private let registration = PThreadLock<Registration?>(nil)
    private let registrationWaiters = PThreadLock<[CheckedContinuation<RegistrationState, Never>]>([])
    private let stopping = PThreadLock(false)
    private let timerFinished = DispatchSemaphore(value: 0)

    /// Binds the SIP socket and starts the agent's threads.
    /// - Throws: `TransportError` (MediaSession's) when the address cannot be bound.
    public init(configuration: SIPUserAgentConfiguration = SIPUserAgentConfiguration()) throws(TransportError) {
        self.configuration = configuration
        let inbox = PThreadLock<(@Sendable ([UInt8], SocketAddress) -> Void)?>(nil)
        self.inbox = inbox
        transport = try SIPTransport(binding: configuration.localAddress) { bytes, source in
            inbox.withLock { $0 }?(bytes, source)
        }
        (incomingCalls, incomingContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        inbox.withLock { $0 = { [weak self] bytes, source in self?.receive(bytes, from: source) } }
        let thread = Thread { [weak self] in
            while let agent = self, !agent.stopping.withLock({ $0 }) {
                agent.tick(now: CallAgent.now())
                usleep(10_000)
            }
            self?.timerFinished.signal()
        }
        thread.name = "sip-timers"
        thread.start()
    }

    /// Without ``shutdown()``: stops the I/O thread (without waiting for it when the last
    /// reference goes on that thread, inside a datagram's handling) and ends ``incomingCalls``.
    deinit {
        transport.shutdown()
        incomingContinuation.finish()
    }

    /// The address the SIP socket is bound to.
    public var localAddress: SocketAddress { transport.socket.localAddress }

    /// What was counted of received datagrams so far.
    public var counters: SIPCounters { counterState.withLock { $0 } }

    /// The registration's state, or nil when ``register(with:expiresSeconds:)`` was never called.
    public var registrationState: RegistrationState? { registration.withLock { $0?.state } }

    /// Calls `uri` (a `sip:` URI with a literal IP address; port 5060 when none) with a media
    /// session made from `media`; the INVITE is on its way when this returns.
    /// - Throws: ``CallError/badURI(_:)`` for a URI that cannot be dialled,
    ///   ``CallError/media(_:)`` when the session cannot bind its socket.
    public func dial(_ uri: String, media: MediaSessionConfiguration) throws(CallError) -> Call {
        let target: SIPURI
        do {
            target = try SIPURI(parsing: uri)
        } catch {
            throw .badURI("'\(uri)' is not a sip: URI")
        }
        guard target.scheme == "sip", let destination = CallDialog.address(of: target) else {
            throw .badURI("'\(uri)': only sip: URIs with a literal IP address can be dialled")
        }
        let session: MediaSession
        do {
            session = try MediaSession(configuration: media)
        } catch {
            throw .media(error.description)
        }
        let agent = CallAgent(transport: transport, configuration: configuration)
        var capabilities = session.localCapabilities
        capabilities.sessionID = UInt64.random(in: 1...UInt64(Int64.max))
        let local = NameAddress(
            displayName: configuration.displayName,
            uri: SIPURI(user: configuration.userName, host: CallAgent.hostText(localAddress), port: localAddress.port),
            parameters: [("tag", SIPIdentifiers.token(10))]
        )
        let callID = SIPIdentifiers.token(24)
        var dialog = CallDialog(callID: callID, localParty: local, remoteParty: NameAddress(uri: target), remoteTarget: target)
        dialog.destination = destination
        dialog.capabilities = capabilities
        dialog.ringDeadline = CallAgent.now() + MediaTime(seconds: configuration.ringTimeoutSeconds)
        let offer = MediaNegotiation.offer(capabilities)
        let call = Call(direction: .outgoing, callID: callID, dialog: dialog, agent: agent)
        call.attach(session)
        calls.withLock { $0[callID] = call }
        call.perform(
            call.dialog.withLock { dialog in
                var effects = CallEffects()
                dialog.startInvite(dialog.request("INVITE", cseq: 1, body: Array(offer.text.utf8), agent: agent), agent: agent, &effects)
                return effects
            })
        return call
    }

    /// Registers our Contact with `registrar` (a `sip:` URI with a literal address), answering
    /// a digest challenge with the configured credentials, and refreshes the binding at half
    /// its expiry until ``shutdown()``. Returns once the registrar gave its final answer.
    public func register(with registrar: String, expiresSeconds: Int = 300) async throws(CallError) -> RegistrationState {
        let uri: SIPURI
        do {
            uri = try SIPURI(parsing: registrar)
        } catch {
            throw .badURI("'\(registrar)' is not a sip: URI")
        }
        guard let destination = CallDialog.address(of: uri) else {
            throw .badURI("'\(registrar)': the registrar needs a literal IP address")
        }
        let agent = CallAgent(transport: transport, configuration: configuration)
        return await withCheckedContinuation { continuation in
            registrationWaiters.withLock { $0.append(continuation) }
            let request = registration.withLock { state -> SIPRequest in
                var binding = Registration(registrar: uri, destination: destination, requestedExpiresSeconds: expiresSeconds)
                let request = binding.request(agent: agent)
                binding.transaction = NonInviteClientTransaction(request: request, now: CallAgent.now(), timers: configuration.timers)
                state = binding
                return request
            }
            transport.send(request.bytes, to: destination)
        }
    }

    /// Hangs up every call, stops the threads and closes the socket. Idempotent.
    public func shutdown() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        timerFinished.wait()
        for call in calls.withLock({ Array($0.values) }) { call.hangUp() }
        transport.shutdown()
        incomingContinuation.finish()
        finishRegistrationWaiters()
    }

    // MARK: - Receiving

    private func receive(_ bytes: [UInt8], from source: SocketAddress) {
        let message: SIPMessage
        do {
            message = try SIPMessage(parsing: bytes)
        } catch {
            if let badRequest = SIPResponse(badRequest: bytes, error: error) {
                counterState.withLock { $0.badRequestsAnswered += 1 }
                transport.send(badRequest.bytes, to: source)
            } else {
                counterState.withLock { $0.malformedDropped += 1 }
            }
            return
        }
        counterState.withLock { $0.messagesReceived += 1 }
        let now = CallAgent.now()
        switch message {
        case .response(let response):
            if receiveRegistration(response, now: now) { return }
            if let callID = response.headers.callID, let call = calls.withLock({ $0[callID] }) {
                call.receive(response, now: now)
            } else {
                counterState.withLock { $0.strayResponsesDropped += 1 }
            }
        case .request(let request):
            receive(request, from: source, now: now)
        }
    }

    private func receive(_ request: SIPRequest, from source: SocketAddress, now: MediaTime) {
        let existing = request.headers.callID.flatMap { callID in calls.withLock { $0[callID] } }
        switch request.method {
        case "OPTIONS":
            var response = SIPResponse(answering: request, statusCode: 200, toTag: SIPIdentifiers.token(10))
            response.headers.add("Allow", Self.allowedMethods)
            response.headers.add("Accept", "application/sdp")
            response.headers.add("Server", configuration.product)
            transport.send(response.bytes, to: source)
        case "INVITE", "ACK", "CANCEL", "BYE":
            if let existing {
                existing.receive(request, from: source, now: now)
            } else if request.method == "INVITE", request.headers.to?.tag == nil {
                acceptIncoming(request, from: source)
            } else if request.method != "ACK" {
                counterState.withLock { $0.unmatchedRequestsAnswered += 1 }
                transport.send(SIPResponse(answering: request, statusCode: 481, toTag: SIPIdentifiers.token(10)).bytes, to: source)
            }
        case "REGISTER":
            var response = SIPResponse(answering: request, statusCode: 405, toTag: SIPIdentifiers.token(10))
            response.headers.add("Allow", Self.allowedMethods)
            transport.send(response.bytes, to: source)
        default:
            counterState.withLock { $0.unknownMethodsAnswered += 1 }
            var response = SIPResponse(answering: request, statusCode: 501, toTag: request.headers.to?.tag ?? SIPIdentifiers.token(10))
            response.headers.add("Allow", Self.allowedMethods)
            transport.send(response.bytes, to: source)
        }
    }

    private func acceptIncoming(_ invite: SIPRequest, from source: SocketAddress) {
        guard let callID = invite.headers.callID, var local = invite.headers.to, let remote = invite.headers.from, let cseq = invite.headers.cseq else {
            return
        }
        local.tag = SIPIdentifiers.token(10)
        var dialog = CallDialog(callID: callID, localParty: local, remoteParty: remote, remoteTarget: invite.headers.contact?.uri ?? remote.uri)
        dialog.routeSet = invite.headers.values("Record-Route")
        dialog.remoteCSeq = cseq.number
        dialog.inviteSource = source
        dialog.remoteUserAgent = invite.headers["User-Agent"]
        dialog.updateDestination()
        if dialog.destination == nil { dialog.destination = source }
        let agent = CallAgent(transport: transport, configuration: configuration)
        let call = Call(direction: .incoming, callID: callID, dialog: dialog, agent: agent)
        calls.withLock { $0[callID] = call }
        call.perform(
            call.dialog.withLock { dialog in
                var effects = CallEffects()
                dialog.ring(invite, agent: agent, &effects)
                return effects
            })
        incomingContinuation.yield(call)
    }

    // MARK: - Registration and timers

    private func receiveRegistration(_ response: SIPResponse, now: MediaTime) -> Bool {
        let agent = CallAgent(transport: transport, configuration: configuration)
        let outcome = registration.withLock { state -> (matched: Bool, send: SIPRequest?, destination: SocketAddress?, final: RegistrationState?)? in
            guard var binding = state, response.headers.callID == binding.callID, var transaction = binding.transaction,
                CallDialog.key(transaction.request) == CallDialog.key(response)
            else { return nil }
            let actions = transaction.receive(response, now: now)
            binding.transaction = transaction
            var retry: SIPRequest?
            var final: RegistrationState?
            for case .deliver(let delivered) in actions where !delivered.isProvisional {
                retry = binding.handle(delivered, now: now, agent: agent)
                if let retry {
                    binding.transaction = NonInviteClientTransaction(request: retry, now: now, timers: configuration.timers)
                } else {
                    final = binding.state
                }
            }
            state = binding
            return (true, retry, binding.destination, final)
        }
        guard let outcome else { return false }
        if let retry = outcome.send, let destination = outcome.destination { transport.send(retry.bytes, to: destination) }
        if outcome.final != nil { finishRegistrationWaiters() }
        return true
    }

    private func finishRegistrationWaiters() {
        let state = registration.withLock { $0?.state } ?? .failed(status: 0, reason: "shut down")
        for waiter in registrationWaiters.withLock({ waiters in
            defer { waiters = [] }; return waiters
        }) {
            waiter.resume(returning: state)
        }
    }

    private func tick(now: MediaTime) {
        let active = calls.withLock { Array($0.values) }
        for call in active { call.tick(now: now) }
        calls.withLock { table in
            for call in active where call.isFinished { table[call.callID] = nil }
        }
        tickRegistration(now: now)
    }

    private func tickRegistration(now: MediaTime) {
        let agent = CallAgent(transport: transport, configuration: configuration)
        let (send, timedOut) = registration.withLock { state -> (SIPMessage?, Bool) in
            guard var binding = state else { return (nil, false) }
            defer { state = binding }
            if let refreshAt = binding.refreshAt, now >= refreshAt {
                binding.refreshAt = nil
                let request = binding.request(agent: agent)
                binding.transaction = NonInviteClientTransaction(request: request, now: now, timers: configuration.timers)
                return (.request(request), false)
            }
            guard var transaction = binding.transaction else { return (nil, false) }
            let actions = transaction.tick(now: now)
            binding.transaction = transaction.state == .terminated ? nil : transaction
            if actions.contains(.timedOut) {
                binding.state = .failed(status: 408, reason: "Request Timeout")
                return (nil, true)
            }
            for case .send(let message) in actions { return (message, false) }
            return (nil, false)
        }
        if let send, let destination = registration.withLock({ $0?.destination }) { transport.send(send.bytes, to: destination) }
        if timedOut { finishRegistrationWaiters() }
    }
}
