import Foundation
import Locking
import RTP
import SecureTransport

/// One browser call: a ``MediaSession`` behind ICE-lite and DTLS-SRTP on its single socket.
///
/// Create it with the browser's offer and send back ``answer``. The peer's connectivity checks
/// are answered (its nominated address becomes the media target), the DTLS handshake runs, and
/// once both are done the session starts with the exported SRTP keys. STUN consent checks and
/// DTLS alerts keep arriving through the session's receive path. The call ends, with a reason in
/// ``state``, on ``hangUp()``, when the peer closes DTLS, when its consent lapses, or when the
/// handshake fails (a wrong fingerprint included) or does not complete in time.
///
/// Threading: datagrams are handled on the session's I/O thread; a small timer thread (every
/// 20 ms) retransmits DTLS flights, checks the deadlines and starts the media once ready. Both
/// hold the call's lock only around the state machines, never across I/O.
public final class WebRTCCall: Sendable {
    /// The audio session; its statistics, quality reports and events are the call's.
    public let session: MediaSession
    /// The answer to send back to the browser.
    public let answer: SessionDescription
    /// What the offer/answer settled.
    public let negotiated: WebRTCNegotiatedTransport
    /// Every change of ``state``, the last being ``WebRTCCallState/ended(reason:)``.
    public let stateChanges: AsyncStream<WebRTCCallState>

    private let lock = PThreadMutex()
    private let machines: Machines
    private let stateContinuation: AsyncStream<WebRTCCallState>.Continuation

    /// The mutable part, touched only inside `lock`.
    ///
    /// `@unchecked Sendable`: every access is inside the owning call's `lock`.
    private final class Machines: @unchecked Sendable {
        var ice: ICELiteAgent
        var dtls: DTLSEndpoint
        var state = WebRTCCallState.connecting
        /// Where DTLS records go: the source of the peer's last DTLS datagram, else the ICE target.
        var dtlsPeer: SocketAddress?
        var registration: UInt64?
        var mediaStarted = false
        var suite: SRTPCryptoSuite?
        var lastRefusal: ICECheckRejection?

        init(ice: ICELiteAgent, dtls: consuming DTLSEndpoint) {
            self.ice = ice
            self.dtls = dtls
        }
    }

    /// Answers `offer`: binds the session's socket, negotiates, and starts listening for checks.
    /// - Parameters:
    ///   - offer: the browser's offer (ICE-lite, DTLS fingerprint, rtcp-mux).
    ///   - configuration: the session's configuration; rtcp-mux is forced on and SDES suites off,
    ///     since the keys come from DTLS.
    ///   - certificate: the DTLS certificate (SecureTransport's `DTLSCertificate.shared` or one
    ///     per call).
    ///   - handshakeTimeout: how long ICE nomination plus the DTLS handshake may take.
    ///   - eventLoop: the I/O loop the session's socket joins, or nil for one of its own.
    /// - Throws: ``MediaSessionError/negotiation(_:)`` for an offer this end cannot answer,
    ///   ``MediaSessionError/transport(_:)`` when the socket cannot be bound or registered.
    public init(
        offer: SessionDescription, configuration: MediaSessionConfiguration, certificate: DTLSCertificate,
        handshakeTimeout: MediaTime = MediaTime(seconds: 15), eventLoop: UDPEventLoop? = nil
    ) throws(MediaSessionError) {
        var configuration = configuration
        configuration.rtcpMux = true
        configuration.srtpSuites = []
        session = try MediaSession(configuration: configuration, eventLoop: eventLoop)
        let localICE = ICECredentials.random()
        do {
            (answer, negotiated) = try WebRTCNegotiation.answer(
                to: offer, with: session.localCapabilities, transport: WebRTCLocalTransport(ice: localICE, fingerprint: certificate.fingerprint))
        } catch {
            throw .webRTCOffer(error)
        }
        let now = session.mediaClock.now()
        var ice = ICELiteAgent(local: localICE, remote: negotiated.remoteICE, nominationTimeout: handshakeTimeout)
        ice.start(now: now)
        var dtls: DTLSEndpoint
        do {
            dtls = try DTLSEndpoint(
                role: negotiated.dtlsRole, certificate: certificate, remoteFingerprint: negotiated.remoteFingerprint,
                handshakeTimeout: handshakeTimeout)
        } catch {
            throw .secureTransport(error)
        }
        if negotiated.dtlsRole == .server { _ = dtls.start(now: now) }
        machines = Machines(ice: ice, dtls: dtls)
        (stateChanges, stateContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8))
        stateContinuation.yield(.connecting)
        do {
            machines.registration = try session.eventLoop.register(session.socket) { [self] in receive($0) }
        } catch {
            throw .transport(error)
        }
        let timer = Thread { [self] in runTimer() }
        timer.name = "webrtc-timer"
        timer.start()
    }

    /// Where the call is.
    public var state: WebRTCCallState {
        lock.withLock { machines.state }
    }

    /// The SRTP suite DTLS-SRTP selected, once the handshake completed (kept after the call ends).
    public var srtpSuite: SRTPCryptoSuite? {
        lock.withLock { machines.suite }
    }

    /// The DTLS role this end plays.
    public var dtlsRole: DTLSRole { negotiated.dtlsRole }

    /// Ends the call: sends DTLS close_notify, stops the session. Idempotent.
    public func hangUp() {
        end(reason: "hung up locally")
    }

    // MARK: The I/O thread

    private func receive(_ datagram: ReceivedDatagram) {
        guard let source = datagram.source else { return }
        let bytes = UnsafeRawBufferPointer(datagram.bytes)
        let now = session.mediaClock.now()
        var outgoing: [([UInt8], SocketAddress)] = []
        lock.withLock {
            guard !machines.state.isEnded else { return }
            switch DatagramClassifier.classify(bytes) {
            case .stun:
                switch machines.ice.receive(bytes, from: TransportAddress(source), now: now) {
                case let .answered(response, _):
                    outgoing.append((response, source))
                case let .refused(reason, response):
                    machines.lastRefusal = reason
                    if let response { outgoing.append((response, source)) }
                case .ignored:
                    break
                }
                if case .idle = machines.dtls.state, let target = machines.ice.target, let address = try? SocketAddress(target) {
                    machines.dtlsPeer = address
                    outgoing += machines.dtls.start(now: now).map { ($0, address) }
                }
            case .dtls:
                machines.dtlsPeer = source
                outgoing += machines.dtls.receive(bytes, now: now).map { ($0, source) }
            default:
                break  // media before the call has started: nothing can decrypt it yet
            }
        }
        send(outgoing)
    }

    // MARK: The timer thread

    private func runTimer() {
        while !state.isEnded {
            Thread.sleep(forTimeInterval: 0.02)
            tick()
        }
    }

    private func tick() {
        let now = session.mediaClock.now()
        var outgoing: [([UInt8], SocketAddress)] = []
        var failure: String?
        var ready: (keys: DTLSSRTPKeys, target: SocketAddress)?
        lock.withLock {
            guard !machines.state.isEnded else { return }
            machines.ice.poll(now: now)
            if let peer = machines.dtlsPeer {
                outgoing += machines.dtls.poll(now: now).map { ($0, peer) }
            } else {
                _ = machines.dtls.poll(now: now)
            }
            switch (machines.ice.state, machines.dtls.state) {
            case let (.failed(iceFailure), _):
                failure = iceFailure.description + (machines.lastRefusal.map { " (last refused check: \($0))" } ?? "")
            case let (_, .failed(dtlsFailure)):
                failure = dtlsFailure.description
            case (_, .closed):
                failure = "the peer closed DTLS (close_notify)"
            case let (.connected(target), .connected(keys)) where !machines.mediaStarted:
                machines.mediaStarted = true
                machines.suite = keys.suite
                if let address = try? SocketAddress(target) { ready = (keys, address) }
            default:
                break
            }
        }
        send(outgoing)
        if let failure {
            end(reason: failure)
        } else if let ready {
            startMedia(keys: ready.keys, target: ready.target)
        }
    }

    private func startMedia(keys: DTLSSRTPKeys, target: SocketAddress) {
        let registration = lock.withLock { () -> UInt64? in
            defer { machines.registration = nil }
            return machines.registration
        }
        if let registration { session.eventLoop.unregister(registration) }
        var media = negotiated.media
        media.remoteAddress = target.host
        media.remoteRTPPort = Int(target.port)
        media.remoteRTCPPort = Int(target.port)
        do {
            try session.start(negotiated: media, srtpKeys: (keys.local, keys.remote)) { [self] in receive($0) }
        } catch {
            end(reason: "media could not start: \(error)")
            return
        }
        publish(.connected(suite: keys.suite, role: negotiated.dtlsRole))
    }

    private func end(reason: String) {
        var outgoing: [([UInt8], SocketAddress)] = []
        let ending = lock.withLock { () -> (Bool, UInt64?) in
            guard !machines.state.isEnded else { return (false, nil) }
            machines.state = .ended(reason: reason)
            if let peer = machines.dtlsPeer { outgoing = machines.dtls.close().map { ($0, peer) } }
            defer { machines.registration = nil }
            return (true, machines.registration)
        }
        guard ending.0 else { return }
        if let registration = ending.1 { session.eventLoop.unregister(registration) }
        session.stop()
        send(outgoing)
        stateContinuation.yield(.ended(reason: reason))
        stateContinuation.finish()
    }

    private func publish(_ state: WebRTCCallState) {
        let published = lock.withLock { () -> Bool in
            guard !machines.state.isEnded else { return false }
            machines.state = state
            return true
        }
        if published { stateContinuation.yield(state) }
    }

    private func send(_ datagrams: [([UInt8], SocketAddress)]) {
        for (bytes, destination) in datagrams {
            _ = bytes.withUnsafeBytes { try? session.socket.send($0, to: destination) }
        }
    }
}
