import Codecs
import Jitter
import QualityMetrics
import RTP
import Locking

/// The audio path of one call, as a softphone links it.
///
/// Create a session (it binds its socket), offer or answer with ``localCapabilities`` through
/// ``MediaNegotiation``, then ``start(negotiated:)`` with the outcome. Media then flows until
/// ``stop()``: the send path captures, cancels echo, denoises, encodes, packetises, protects
/// and sends one frame per packet time; the receive path unprotects, checks, records and
/// buffers each packet; the audio clock plays 10 ms at a time from the jitter buffer.
///
/// Threading: every method may be called from any thread (the class is `Sendable`); they
/// return at once, except ``stop()``, which waits for the audio tick to send its BYE. The
/// receive path runs on the ``UDPEventLoop``'s I/O thread, the send path and playout on the
/// session's own audio thread (a softphone, the default), or all three on the same I/O thread
/// of a ``MediaRuntime`` (a server carrying many legs), at the leg's tick; they share only the jitter buffer and short
/// locks, none held across I/O. ``events`` and ``qualityReports`` are delivered from those threads.
public final class MediaSession: Sendable {
    private struct Running {
        var audioLoop: AudioLoop
        var receive: ReceivePath
        var registrations: [UInt64]
        var direction: MediaDirection
        var held = false
    }

    /// The configuration the session was created with.
    public let configuration: MediaSessionConfiguration
    /// What this end offers or answers with: our address and port, codecs, ptime, rtcp-mux,
    /// telephone events, one `a=crypto` attribute (with a fresh key) per configured SRTP suite,
    /// and the `o=` version the next description will carry.
    public var localCapabilities: LocalAudioCapabilities {
        capabilities.withLock { $0.current }
    }
    /// Things that happened: DTMF received, SSRC changes, SRTP failures, BYE, no media, device errors.
    public let events: AsyncStream<MediaSessionEvent>
    /// The call's quality once a second while it runs: MOS, loss, jitter, latency, round trip
    /// (see ``MediaQualityReport``). The newest 16 are kept for a slow reader.
    public let qualityReports: AsyncStream<MediaQualityReport>

    private let eventContinuation: AsyncStream<MediaSessionEvent>.Continuation
    private let qualityContinuation: AsyncStream<MediaQualityReport>.Continuation
    /// The RTP socket; a WebRTC call also sends its STUN responses and DTLS records on it.
    let socket: UDPSocket
    /// RTP's port + 1, for RTCP when rtcp-mux is not agreed.
    private let rtcpSocket: UDPSocket
    /// The capabilities offers and answers are made from (read by the negotiation methods).
    let capabilities: PThreadLock<Capabilities>
    /// The I/O thread the socket is registered with.
    let eventLoop: UDPEventLoop
    private let ownsEventLoop: Bool
    /// The runtime carrying the call (kept running while the session lives), or nil for a
    /// softphone's session with its own audio thread.
    private let runtime: MediaRuntime?
    /// The ticking clock of the runtime's I/O thread that serves the socket: it ticks the call
    /// (nil for a softphone's session with its own audio thread).
    private let sharedClock: SharedMediaClock?
    /// The session's time: the monotonic clock (the runtime's, or the configuration's),
    /// placed on the configuration's wall clock once.
    let mediaClock: MediaClock
    private let control = CallControlChannel()
    private let running = PThreadLock<Running?>(nil)
    private let finished = PThreadLock(false)
    /// The call's audio loop, kept after `stop()` for the final statistics.
    private let lastCall = PThreadLock<AudioLoop?>(nil)

    /// A softphone's session: binds the RTP socket and the RTCP socket on the next port (used
    /// when the peer declines rtcp-mux) and draws the SRTP keys. The call gets its own audio
    /// thread, paced by its device (or a monotonic 10 ms timer for endpoints that do not block).
    /// - Parameters:
    ///   - configuration: the call's settings, kept as ``configuration``.
    ///   - eventLoop: the I/O thread to receive on, shared by many sessions; nil gives the
    ///     session its own.
    /// - Throws: ``MediaSessionError/transport(_:)`` when a socket cannot be bound.
    public convenience init(configuration: MediaSessionConfiguration, eventLoop: UDPEventLoop? = nil) throws(MediaSessionError) {
        guard let eventLoop else {
            let ownLoop: UDPEventLoop
            do {
                ownLoop = try UDPEventLoop(clock: configuration.clock)
            } catch {
                throw .transport(error)
            }
            try self.init(configuration: configuration, eventLoop: ownLoop, ownsEventLoop: true, runtime: nil, sharedClock: nil)
            return
        }
        try self.init(configuration: configuration, eventLoop: eventLoop, ownsEventLoop: false, runtime: nil, sharedClock: nil)
    }

    /// A leg carried by `runtime`: the runtime's next I/O thread runs its audio tick, which
    /// reads its sockets and plays; no thread is started for it.
    /// - Throws: ``MediaSessionError/transport(_:)`` when a socket cannot be bound.
    public convenience init(configuration: MediaSessionConfiguration, runtime: MediaRuntime) throws(MediaSessionError) {
        let lane = runtime.nextLane()
        try self.init(configuration: configuration, eventLoop: lane.eventLoop, ownsEventLoop: false, runtime: runtime, sharedClock: lane.mediaClock)
    }

    private init(
        configuration: MediaSessionConfiguration, eventLoop: UDPEventLoop, ownsEventLoop: Bool, runtime: MediaRuntime?,
        sharedClock: SharedMediaClock?
    ) throws(MediaSessionError) {
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.ownsEventLoop = ownsEventLoop
        self.runtime = runtime
        self.sharedClock = sharedClock
        mediaClock = MediaClock(monotonic: runtime?.configuration.clock ?? configuration.clock, wall: configuration.wallClock)
        do {
            (socket, rtcpSocket) = try Self.bindPair(configuration.localAddress, options: configuration.socketOptions)
        } catch {
            if ownsEventLoop { eventLoop.shutdown() }
            throw .transport(error)
        }
        var crypto: [SDESCryptoAttribute] = []
        for (index, suite) in configuration.srtpSuites.enumerated() {
            guard let attribute = try? SDESCryptoAttribute(tag: UInt32(index + 1), key: SDESKeyParameter(masterKey: .random(for: suite))) else {
                continue
            }
            crypto.append(attribute)
        }
        capabilities = PThreadLock(
            Capabilities(
                current: LocalAudioCapabilities(
                    address: socket.localAddress.host, rtpPort: Int(socket.localAddress.port), codecs: configuration.codecs,
                    telephoneEventPayloadType: configuration.telephoneEventPayloadType,
                    packetTimeMilliseconds: configuration.packetTimeMilliseconds, rtcpMux: configuration.rtcpMux, crypto: crypto,
                    srtpRequired: configuration.srtpRequired
                )))
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (qualityReports, qualityContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    /// Binds RTP on `address` and RTCP on the next port; when the system chose the RTP port
    /// and the next one is taken, tries again with another pair.
    private static func bindPair(_ address: SocketAddress, options: UDPSocketOptions) throws(TransportError) -> (UDPSocket, UDPSocket) {
        var attempt = 0
        while true {
            let rtp = try UDPSocket(binding: address, options: options)
            do {
                let next = try SocketAddress(host: rtp.localAddress.host, port: rtp.localAddress.port &+ 1)
                return (rtp, try UDPSocket(binding: next, options: options))
            } catch {
                attempt += 1
                if address.port != 0 || attempt >= 16 || rtp.localAddress.port == UInt16.max { throw error }
            }
        }
    }

    deinit {
        stop()
        // A session that never started finishes its streams here, so that whoever iterates
        // them (a SIP call forwarding them, say) ends instead of waiting for ever.
        eventContinuation.finish()
        qualityContinuation.finish()
        if ownsEventLoop { eventLoop.shutdown() }
    }

    /// The address the RTP socket is bound to.
    public var localAddress: SocketAddress { socket.localAddress }

    /// Starts the call with the outcome of the offer/answer exchange.
    /// - Throws: ``MediaSessionError`` when the session already ran, the codec or address is
    ///   unusable, an SRTP key is malformed, or the socket cannot be registered.
    public func start(negotiated media: NegotiatedAudio) throws(MediaSessionError) {
        try start(negotiated: media, srtpKeys: nil, secureTransportDatagrams: nil)
    }

    /// Starts the call, with SRTP keys from a DTLS-SRTP handshake when `keys` is set (else the
    /// SDES keys `media` negotiated, if any), handing the STUN and DTLS datagrams that arrive on
    /// the socket to `secureTransportDatagrams`.
    func start(
        negotiated media: NegotiatedAudio, srtpKeys keys: (local: SRTPMasterKey, remote: SRTPMasterKey)?,
        secureTransportDatagrams: UDPEventLoop.Handler?
    ) throws(MediaSessionError) {
        guard running.withLock({ $0 == nil }), !finished.withLock({ $0 }) else {
            throw .invalidState("start called on a session that already started")
        }
        let codecs = try CallCodecs(media: media)
        var outbound: SRTPOutboundSession?
        var inbound: SRTPInboundSession?
        if let keys {
            do {
                outbound = try SRTPOutboundSession(key: keys.local)
                inbound = try SRTPInboundSession(key: keys.remote)
            } catch {
                throw .srtp(error)
            }
        } else if let crypto = media.crypto {
            // Each side's MKI, when its a=crypto key gives one, goes into its packets. Under the
            // _32 suites SRTCP carries the 32-bit tag, as Linphone and baresip do, and the RFC's
            // 80-bit tag is accepted too (SRTPSessionOptions.acceptsEitherRTCPTagLength).
            let ours = crypto.local.keys[0], theirs = crypto.remote.keys[0]
            var sending = SRTPSessionOptions(), receiving = SRTPSessionOptions()
            sending.rtcpTagLength = .sameAsRTP
            sending.masterKeyIdentifier = ours.masterKeyIdentifier?.octets ?? []
            receiving.rtcpTagLength = .sameAsRTP
            receiving.acceptsEitherRTCPTagLength = true
            receiving.masterKeyIdentifier = theirs.masterKeyIdentifier?.octets ?? []
            do {
                outbound = try SRTPOutboundSession(key: ours.masterKey, options: sending)
                inbound = try SRTPInboundSession(key: theirs.masterKey, options: receiving)
            } catch {
                throw .srtp(error)
            }
        }
        let sockets = media.rtcpMux ? [socket] : [socket, rtcpSocket]
        let destination: SocketAddress
        let rtcpDestination: SocketAddress?
        do {
            destination = try SocketAddress(host: media.remoteAddress, port: UInt16(clamping: media.remoteRTPPort))
            rtcpDestination = media.rtcpMux ? nil : try SocketAddress(host: media.remoteAddress, port: UInt16(clamping: media.remoteRTCPPort))
        } catch {
            throw .transport(error)
        }
        var jitterConfiguration = configuration.jitterBuffer
        if codecs.decoder.rtpClockRate != 8000 { jitterConfiguration.comfortNoisePayloadType = nil }
        jitterConfiguration.telephoneEvents = media.receiveTelephoneEventFormats
        // A leg on a runtime receives and plays on one thread: its packets skip the inbox.
        let jitterBuffer =
            sharedClock == nil
            ? SynchronizedJitterBuffer(decoder: SessionDecoder(codecs.decoder), configuration: jitterConfiguration)
            : SynchronizedJitterBuffer(decoder: SessionDecoder(codecs.decoder), configuration: jitterConfiguration, inboxCapacity: 1)
        // The call's clock starts now: the jitter buffer counts milliseconds from here.
        let epoch = mediaClock.now()
        let monitor = PThreadLock(QualityMonitor(codec: codecs.monitored(packetTimeMilliseconds: media.packetTimeMilliseconds), start: epoch))
        let reportedLoss = ReportedLoss()
        let receive = ReceivePath(
            media: media, inbound: inbound, jitterBuffer: jitterBuffer, monitor: monitor, clock: mediaClock, epoch: epoch,
            latches: configuration.symmetricRTP,
            comfortNoisePayloadType: jitterConfiguration.comfortNoisePayloadType, events: eventContinuation, reportedLoss: reportedLoss,
            secureTransportDatagrams: secureTransportDatagrams, localSSRC: configuration.ssrc, insertsDirectly: sharedClock != nil
        )
        let send = SendPath(
            media: media, configuration: configuration, encoder: codecs.encoder, outbound: outbound,
            socket: socket, rtcpSocket: media.rtcpMux ? socket : rtcpSocket, reportedLoss: reportedLoss
        )
        let audioLoop = try AudioLoop(
            configuration: configuration, media: media, send: send, receive: receive, jitterBuffer: jitterBuffer,
            control: control, monitor: monitor, clock: mediaClock, epoch: epoch, events: eventContinuation, quality: qualityContinuation,
            captureFormat: codecs.encoder.format, playbackFormat: codecs.decoder.format,
            rtpDestination: destination, rtcpDestination: rtcpDestination,
            polledSockets: sharedClock == nil ? nil : (socket, media.rtcpMux ? nil : rtcpSocket),
            timerLagNanoseconds: runtime.map { Int64($0.configuration.maximumTickLagMilliseconds) * 1_000_000 } ?? AudioLoop.maximumLagNanoseconds
        )
        var registrations: [UInt64] = []
        do {
            // A leg on a runtime reads its sockets at its own tick; epoll watches the others.
            for socket in sharedClock == nil ? sockets : [] {
                registrations.append(try eventLoop.register(socket) { receive.receive($0) })
            }
        } catch {
            registrations.forEach(eventLoop.unregister)
            throw .transport(error)
        }
        apply(direction: media.direction, held: false, to: receive)
        lastCall.withLock { $0 = audioLoop }
        running.withLock { $0 = Running(audioLoop: audioLoop, receive: receive, registrations: registrations, direction: media.direction) }
        if let sharedClock {
            sharedClock.add(audioLoop)
            eventLoop.wake()
        } else {
            audioLoop.startOwnThread(clock: mediaClock.monotonic)
        }
    }

    /// Ends the call: the audio tick sends an RTCP BYE and stops, the socket stops
    /// receiving, and both streams finish. Idempotent; waits for the audio thread.
    public func stop() {
        guard
            let call = running.withLock({ call in
                defer { call = nil }; return call
            })
        else { return }
        finished.withLock { $0 = true }
        control.update { $0.stopping = true }
        call.audioLoop.waitUntilFinished()
        call.registrations.forEach(eventLoop.unregister)
        eventContinuation.finish()
        qualityContinuation.finish()
    }

    /// Stops sending speech: RTP stops (or one comfort-noise packet goes, see
    /// ``MediaSessionConfiguration/muteBehaviour``); RTCP and receiving go on.
    public func mute() {
        control.update { $0.muted = true }
    }

    /// Sends speech again; the next packet starts a talkspurt (marker bit).
    public func unmute() {
        control.update { $0.muted = false }
    }

    /// Puts the call on hold from our side: we stop sending and stop playing what arrives,
    /// within one packet time. Offer `sendonly` or `inactive` to the peer (through SIP) so that
    /// it stops sending too. RTCP goes on.
    public func hold() {
        update { $0.held = true }
    }

    /// Takes the call off hold: media flows again as negotiated.
    public func resume() {
        update { $0.held = false }
    }

    /// Applies the direction of a new offer/answer in the same call (the peer put us on hold
    /// with `sendonly`, `inactive`, or resumed with `sendrecv`).
    public func setDirection(_ direction: MediaDirection) {
        update { $0.direction = direction }
    }

    /// Queues RFC 4733 telephone events for `digits` (`0`–`9`, `*`, `#`, `A`–`D`), 100 ms each
    /// with a gap of three packet times, sent in place of audio on the audio's timestamp clock.
    /// - Throws: ``MediaSessionError/invalidState(_:)`` when the call has not started or
    ///   telephone events were not negotiated, ``MediaSessionError/invalidDigit(_:)`` for any
    ///   other character (then nothing is queued).
    public func sendDTMF(_ digits: String) throws(MediaSessionError) {
        var codes: [UInt8] = []
        for character in digits {
            guard let code = DTMFEventCode.code(for: character) else { throw .invalidDigit(character) }
            codes.append(code)
        }
        guard running.withLock({ $0 != nil }) else { throw .invalidState("sendDTMF before start") }
        control.update { $0.pendingDigits.append(contentsOf: codes) }
    }

    /// Moves the call to other audio devices (or another endpoint) without interrupting it;
    /// the audio thread closes the old ones and opens the new ones at its next 10 ms tick.
    public func switchAudio(to audio: MediaAudioIO) {
        control.update { $0.pendingAudio = audio }
    }

    /// The session's counters so far (zero before start, final after stop).
    public var statistics: MediaSessionStatistics {
        lastCall.withLock { $0 }?.statistics() ?? MediaSessionStatistics()
    }

    /// The jitter buffer's figures so far: samples played and concealed, late and discarded
    /// packets, delay (zero before start, final after stop). Each quality report carries the
    /// same figures once a second; this reads them at any time.
    public var playoutStatistics: JitterBufferStatistics {
        lastCall.withLock { $0 }?.playoutStatistics ?? JitterBufferStatistics()
    }

    private func update(_ change: (inout Running) -> Void) {
        let call = running.withLock { call -> Running? in
            guard call != nil else { return nil }
            change(&call!)
            return call
        }
        guard let call else { return }
        apply(direction: call.direction, held: call.held, to: call.receive)
    }

    private func apply(direction: MediaDirection, held: Bool, to receive: ReceivePath) {
        let receives = direction.receives && !held
        receive.setReceiving(receives)
        control.update { control in
            control.sends = direction.sends && !held
            control.receives = receives
        }
    }
}
