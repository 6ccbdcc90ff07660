public import MediaSession
import Locking
import RTP

/// One phone call, the way the seeds' SDKs (OmiKit, Voximplant, Vonage, Flashphoner) present
/// it: it goes calling → ringing → connected (→ held / remotely held) → ended with a reason,
/// and can be answered, rejected, muted, held, resumed, sent DTMF and hung up.
///
/// Get one from ``SIPUserAgent/dial(_:media:)`` or ``SIPUserAgent/incomingCalls``. Every
/// method may be called from any thread and returns at once.
public final class Call: Sendable {
    /// Who started the call.
    public enum Direction: String, Sendable {
        /// We dialled.
        case outgoing
        /// The peer dialled us.
        case incoming
    }

    /// Who started the call.
    public let direction: Direction
    /// The SIP Call-ID.
    public let callID: String
    /// Every state change, from ``CallState/calling`` to ``CallState/ended(_:)``, then the stream finishes.
    public let states: AsyncStream<CallState>
    /// The session's quality reports, one a second while media flows (MediaSession's `MediaQualityReport`).
    public let qualityReports: AsyncStream<MediaQualityReport>
    /// The session's events: DTMF received, SRTP failures, no media, device errors.
    public let mediaEvents: AsyncStream<MediaSessionEvent>

    let agent: CallAgent
    let dialog: PThreadLock<CallDialog>
    private let sessionBox = PThreadLock<MediaSession?>(nil)
    private let published = PThreadLock(CallState.calling)
    private let stateContinuation: AsyncStream<CallState>.Continuation
    private let qualityContinuation: AsyncStream<MediaQualityReport>.Continuation
    private let eventContinuation: AsyncStream<MediaSessionEvent>.Continuation

    init(direction: Direction, callID: String, dialog: CallDialog, agent: CallAgent) {
        self.direction = direction
        self.callID = callID
        self.agent = agent
        self.dialog = PThreadLock(dialog)
        (states, stateContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (qualityReports, qualityContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
        (mediaEvents, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        stateContinuation.yield(.calling)
    }

    /// Where the call stands now: the last state published on ``states``, after the media
    /// session followed it (so DTMF may be sent as soon as this reads connected).
    public var state: CallState { published.withLock { $0 } }
    /// Every state the call went through, in order.
    public var stateHistory: [CallState] { dialog.withLock { $0.history } }
    /// The peer's `User-Agent` or `Server` header, once seen.
    public var remoteUserAgent: String? { dialog.withLock { $0.remoteUserAgent } }
    /// The peer's address (From of an incoming call, To of an outgoing one).
    public var remoteParty: String { dialog.withLock { $0.remoteParty.uri.description } }
    /// The SDP offer of an incoming call, to choose the media configuration before answering.
    public var remoteOffer: SessionDescription? { dialog.withLock { $0.remoteOffer } }
    /// What the offer/answer settled, once it did; its direction follows each re-INVITE (after
    /// our hold it is what the peer answered: sendonly or inactive when it saw the hold).
    public var negotiatedAudio: NegotiatedAudio? { dialog.withLock { $0.negotiated } }
    /// The call's media session, once the call has one (at dial, or when answered).
    public var session: MediaSession? { sessionBox.withLock { $0 } }

    /// Answers an incoming call that is ringing: a media session is made from `media`, the
    /// offer answered, and 200 OK sent. When the offer cannot be answered, 488 goes back and
    /// the call ends as failed.
    /// - Throws: ``CallError`` when the call is not an unanswered incoming call or the session
    ///   cannot bind its socket.
    public func answer(media: MediaSessionConfiguration) throws(CallError) {
        guard direction == .incoming, dialog.withLock({ $0.inviteServer?.state == .proceeding && !$0.state.isEnded }) else {
            throw .invalidState("answer: the call is not an unanswered incoming call")
        }
        let session: MediaSession
        do {
            session = try MediaSession(configuration: media)
        } catch {
            throw .media(error.description)
        }
        attach(session)
        let effects = dialog.withLock { $0.answer(with: session.localCapabilities, agent: agent) }
        perform(effects)
    }

    /// Refuses an incoming call that is ringing: 486 Busy Here when `busy`, else 603 Decline.
    public func reject(busy: Bool = false) {
        perform(dialog.withLock { $0.reject(status: busy ? 486 : 603, agent: agent) })
    }

    /// Hangs up: BYE when connected, CANCEL when still ringing out, 603 when ringing here.
    public func hangUp() {
        perform(dialog.withLock { $0.hangUp(agent: agent) })
    }

    /// Stops sending our audio (RTCP goes on).
    public func mute() { session?.mute() }

    /// Sends our audio again.
    public func unmute() { session?.unmute() }

    /// Puts the call on hold: a re-INVITE offering sendonly (RFC 3264 §8.4).
    public func hold() {
        perform(dialog.withLock { $0.reinvite(.hold, agent: agent) })
    }

    /// Takes the call off hold: a re-INVITE offering sendrecv.
    public func resume() {
        perform(dialog.withLock { $0.reinvite(.resume, agent: agent) })
    }

    /// Sends RFC 4733 digits (`0`–`9`, `*`, `#`, `A`–`D`).
    /// - Throws: ``CallError`` when there is no media yet or a digit is not a DTMF digit.
    public func sendDTMF(_ digits: String) throws(CallError) {
        guard let session else { throw .invalidState("sendDTMF before the call has media") }
        do {
            try session.sendDTMF(digits)
        } catch {
            throw .media(error.description)
        }
    }

    /// Moves the call's audio to other devices (or an endpoint) without interrupting it.
    public func switchAudio(to audio: MediaAudioIO) { session?.switchAudio(to: audio) }

    // MARK: - Driven by the user agent

    /// Gives the call its session and forwards the session's streams to the call's.
    func attach(_ session: MediaSession) {
        sessionBox.withLock { $0 = session }
        let quality = qualityContinuation
        let events = eventContinuation
        // The tasks hold the session's streams, not the session: a session that is let go
        // (never started, or stopped) finishes its streams, and the tasks end with them.
        let sessionReports = session.qualityReports
        let sessionEvents = session.events
        Task.detached {
            for await report in sessionReports { quality.yield(report) }
            quality.finish()
        }
        Task.detached {
            for await event in sessionEvents { events.yield(event) }
            events.finish()
        }
    }

    /// A request for this call arrived from `source`.
    func receive(_ request: SIPRequest, from source: SocketAddress, now: MediaTime) {
        perform(dialog.withLock { $0.receive(request, from: source, now: now, agent: agent) })
    }

    /// A response for this call arrived.
    func receive(_ response: SIPResponse, now: MediaTime) {
        perform(dialog.withLock { $0.receive(response, now: now, agent: agent) })
    }

    /// Advances the call's transactions to `now`.
    func tick(now: MediaTime) {
        perform(dialog.withLock { $0.tick(now: now, agent: agent) })
    }

    /// Whether the call ended and has no transaction left that may still need to answer.
    var isFinished: Bool {
        dialog.withLock { dialog in
            dialog.state.isEnded && dialog.clients.isEmpty && dialog.servers.isEmpty
                && (dialog.inviteServer == nil || dialog.inviteServer?.state == .terminated)
                && (dialog.inviteClient == nil || dialog.inviteClient?.state == .terminated)
        }
    }

    /// Sends the datagrams, drives the session and publishes the states, outside the lock.
    func perform(_ effects: CallEffects) {
        for datagram in effects.datagrams { agent.transport.send(datagram.bytes, to: datagram.destination) }
        for step in effects.media { apply(step) }
        for state in effects.states {
            published.withLock { $0 = state }
            stateContinuation.yield(state)
            if state.isEnded { stateContinuation.finish() }
        }
    }

    private func apply(_ step: CallEffects.MediaStep) {
        guard let session else {
            if case .stop = step { finishMediaStreams() }
            return
        }
        switch step {
        case .start(let negotiated):
            do {
                try session.start(negotiated: negotiated)
            } catch {
                perform(dialog.withLock { $0.failMedia(error.description, agent: agent) })
            }
        case .direction(let direction): session.setDirection(direction)
        case .hold: session.hold()
        case .resume: session.resume()
        case .stop:
            session.stop()
            // A session that never started has streams that never finish on their own.
            finishMediaStreams()
        }
    }

    private func finishMediaStreams() {
        qualityContinuation.finish()
        eventContinuation.finish()
    }
}

/// Why a ``Call`` method could not do what was asked.
public enum CallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call is not in a state that allows it.
    case invalidState(String)
    /// The media session refused (socket, codec, digit).
    case media(String)
    /// The URI cannot be dialled (not a sip URI with a literal address).
    case badURI(String)

    /// One line saying what was wrong.
    public var description: String {
        switch self {
        case .invalidState(let message): message
        case .media(let message): "media: \(message)"
        case .badURI(let message): "bad URI: \(message)"
        }
    }
}
