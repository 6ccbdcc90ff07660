import Codecs
import Jitter
import QualityMetrics
import RTP
import Locking
import Synchronization

/// The receive path, run on the ``UDPEventLoop``'s I/O thread: demultiplex, SRTP unprotect in
/// place, parse, latch, filter the source, dispatch by payload type, record statistics, and
/// hand audio to the jitter buffer. Anything malformed or forged is counted and dropped.
///
/// Locks: what the audio thread reads (statistics, the report block, the latched address) is
/// in `locked`, whose critical sections record and count, nothing more. SRTP, parsing, DTMF
/// and the event rate limit are the I/O thread's own state (``IOThreadState``), used outside
/// any lock; the quality monitor and the jitter buffer are called after `locked` is released,
/// never inside it; events are yielded with no lock held. The packet's bytes go from the
/// kernel's batch buffer, unprotected in place, straight into the jitter buffer: one copy.
///
/// `@unchecked Sendable`: `locked` guards the shared state, and `owned` is touched only by the
/// I/O thread (a session's sockets are all registered on one ``UDPEventLoop``).
final class ReceivePath: @unchecked Sendable {
    private let locked: PThreadLock<ReceiveState>
    private let jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>
    private let monitor: PThreadLock<QualityMonitor>
    private let events: AsyncStream<MediaSessionEvent>.Continuation
    /// Where the peer's loss reports go for the send path.
    private let reportedLoss: ReportedLoss
    /// The payload types decoded as audio: the negotiated codec on every number it was given.
    private let audioPayloadTypes: PayloadTypeSet
    /// The payload types read as RFC 4733 telephone events.
    private let telephoneEventPayloadTypes: PayloadTypeSet
    private let comfortNoisePayloadType: UInt8?
    private let clockRate: Int
    /// Our SSRC: the peer's report block about it is the one that echoes our SRs.
    private let localSSRC: UInt32?
    private let latches: Bool
    /// The origin of the jitter buffer's clock: the call's start, in media time (monotonic).
    private let epoch: MediaTime
    /// The I/O thread's own state (only that thread touches it: no run-time exclusivity check).
    @exclusivity(unchecked) private var owned: IOThreadState
    /// The arrival of the last accepted RTP packet in nanoseconds, `Int64.min` before the
    /// first: the audio tick reads it every 10 ms, without the lock.
    private let lastMediaArrival = Atomic<Int64>(.min)
    /// Where STUN and DTLS datagrams go (a WebRTC call's ICE agent and DTLS endpoint); nil drops them.
    private let secureTransportDatagrams: UDPEventLoop.Handler?
    /// Whether packets go straight into the jitter buffer (a leg whose tick reads its sockets,
    /// on the thread that pulls) rather than through its inbox (an I/O thread beside the audio thread).
    private let insertsDirectly: Bool

    init(
        media: NegotiatedAudio, inbound: consuming SRTPInboundSession?, jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>,
        monitor: PThreadLock<QualityMonitor>, clock: MediaClock, epoch: MediaTime, latches: Bool, comfortNoisePayloadType: UInt8?,
        events: AsyncStream<MediaSessionEvent>.Continuation, reportedLoss: ReportedLoss = ReportedLoss(),
        secureTransportDatagrams: UDPEventLoop.Handler? = nil, localSSRC: UInt32? = nil, insertsDirectly: Bool = false
    ) {
        self.localSSRC = localSSRC
        self.insertsDirectly = insertsDirectly
        self.secureTransportDatagrams = secureTransportDatagrams
        self.reportedLoss = reportedLoss
        self.epoch = epoch
        owned = IOThreadState(inbound: inbound, arrivals: ArrivalClock(clock: clock))
        self.monitor = monitor
        self.jitterBuffer = jitterBuffer
        self.events = events
        self.latches = latches
        self.comfortNoisePayloadType = comfortNoisePayloadType
        audioPayloadTypes = PayloadTypeSet(media.receiveAudioPayloadTypes)
        telephoneEventPayloadTypes = PayloadTypeSet(media.receiveTelephoneEventPayloadTypes)
        clockRate = media.sendCodec.map.clockRate
        locked = PThreadLock(ReceiveState(reception: ReceptionStatistics(clockRate: clockRate)))
    }

    /// Brings in the state shared with the audio thread (the reception statistics, the
    /// counters), the quality monitor's mutex and the SRTP session's state (its replay window,
    /// cipher context and HMAC states) ahead of a tick (``AudioLoop/prefetch(_:)``).
    func prefetchParts() {
        CachePrefetch.object(locked, lines: 8)
        monitor.hotRegions { CachePrefetch.region($0, bytes: $1) }
        owned.inbound?.hotRegions { CachePrefetch.region($0, bytes: $1) }
    }

    /// Brings in the mutex of the state shared with the audio thread, once the lock's object
    /// is in (``prefetchParts()``).
    func prefetchDeepParts() {
        locked.hotRegions { CachePrefetch.region($0, bytes: $1) }
    }

    /// The peer's address once latched (symmetric RTP), else nil.
    var latchedSource: SocketAddress? {
        locked.withLock { state in state.latchedAddress }
    }

    /// Whether received media is played (false on hold: packets are still authenticated and
    /// checked, then dropped).
    func setReceiving(_ receiving: Bool) {
        locked.withLock { state in state.receives = receiving }
    }

    /// Takes one datagram on the I/O thread.
    func receive(_ datagram: ReceivedDatagram) {
        let (arrival, step) = owned.arrivals.arrival(ofKernelNanoseconds: datagram.arrivalNanoseconds)
        if let step { reportWallClockStep(nanoseconds: step) }
        guard !datagram.isTruncated, let source = datagram.source else {
            count(\.malformedDropped)
            return
        }
        let kind = DatagramClassifier.classify(UnsafeRawBufferPointer(datagram.bytes))
        if kind == .stun || kind == .dtls, let secureTransportDatagrams {
            secureTransportDatagrams(datagram)
            return
        }
        switch kind {
        case .rtp: receiveRTP(datagram.bytes, from: source, arrival: arrival)
        case .rtcp where owned.inbound != nil && PlaintextKeepalive.matches(UnsafeRawBufferPointer(datagram.bytes)):
            count(\.keepalivesIgnored)
        case .rtcp: receiveRTCP(datagram.bytes, arrival: arrival)
        case .stun: count(\.keepalivesIgnored)
        default: count(\.malformedDropped)
        }
    }

    private func receiveRTP(_ bytes: UnsafeMutableRawBufferPointer, from source: SocketAddress, arrival: MediaTime) {
        if latches, let latched = owned.latchedAddress, latched != source {
            count(\.foreignAddressDropped)
            return
        }
        guard let length = unprotect(bytes, arrival: arrival, rtcp: false) else { return }
        let packet: RTPPacket
        do {
            packet = try RTPPacket(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            count(\.malformedDropped)
            return
        }
        let admission = locked.withLock { state in admit(packet, from: source, arrival: arrival, state: &state) }
        if let latched = admission.latched {
            owned.latchedAddress = latched
            events.yield(.remoteAddressLatched(latched))
        }
        if let switched = admission.switchedSource {
            owned.dtmf = DTMFReceiver()
            events.yield(.remoteSSRCChanged(from: switched.from, to: switched.to))
        }
        if let reception = admission.reception {
            monitor.withLock { $0.recordArrival(reception) }
        }
        switch admission.verdict {
        case .drop:
            break
        case .audio:
            play(packet, arrival: arrival)
        case .telephoneEvent:
            receiveTelephoneEvent(packet)
            // The buffer plays the event's tone where the sender sent it in place of audio.
            play(packet, arrival: arrival)
        }
    }

    /// Hands an audio or telephone-event packet to the jitter buffer.
    private func play(_ packet: RTPPacket, arrival: MediaTime) {
        let arrivalMilliseconds = (arrival - epoch).milliseconds
        let kept =
            insertsDirectly
            ? jitterBuffer.insertDirectly(packet, arrivalMilliseconds: arrivalMilliseconds)
            : jitterBuffer.insert(packet, arrivalMilliseconds: arrivalMilliseconds)
        if !kept {
            count(\.jitterInboxDropped)
        }
    }

    /// The part of an RTP packet's reception that the audio thread shares, under the lock:
    /// latching, the source filter, the payload type, statistics and counters.
    private func admit(_ packet: RTPPacket, from source: SocketAddress, arrival: MediaTime, state: inout ReceiveState) -> RTPAdmission {
        var admission = RTPAdmission()
        if latches, state.latchedAddress == nil {
            state.latchedAddress = source
            admission.latched = source
        }
        switch state.sourceFilter.admit(ssrc: packet.ssrc, sequence: packet.sequenceNumber.rawValue) {
        case .foreign:
            state.counters.foreignSSRCDropped += 1
            return admission
        case let .switched(from, to):
            state.reception = ReceptionStatistics(clockRate: clockRate)
            admission.switchedSource = (from, to)
        case .current:
            break
        }
        let payloadType = packet.payloadType
        let isAudio = audioPayloadTypes.contains(payloadType) || payloadType == comfortNoisePayloadType
        guard isAudio || telephoneEventPayloadTypes.contains(payloadType) else {
            state.counters.unknownPayloadTypeDropped += 1
            return admission
        }
        // Telephone events repeat their start timestamp; only audio feeds the jitter estimate.
        let outcome = state.reception.record(packet, arrival: arrival, updatesJitter: isAudio)
        admission.reception = ReceptionCounters(state.reception)
        if outcome == .duplicate {
            state.counters.duplicatesDropped += 1
            return admission
        }
        guard state.receives else { return admission }
        state.counters.rtpPacketsReceived += 1
        lastMediaArrival.store(arrival.nanoseconds, ordering: .relaxed)
        admission.verdict = isAudio ? .audio : .telephoneEvent
        return admission
    }

    private func receiveTelephoneEvent(_ packet: RTPPacket) {
        guard let payload = try? DTMFEventPayload(parsing: packet.payload) else {
            count(\.malformedDropped)
            return
        }
        for press in owned.dtmf.receive(payload, timestamp: packet.timestamp) {
            if let character = DTMFEventCode.character(for: press.event) {
                events.yield(.dtmfReceived(character))
            }
        }
    }

    private func receiveRTCP(_ bytes: UnsafeMutableRawBufferPointer, arrival: MediaTime) {
        guard let length = unprotect(bytes, arrival: arrival, rtcp: true) else { return }
        let compound: RTCPCompoundPacket
        do {
            compound = try RTCPCompoundPacket(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            count(\.malformedDropped)
            return
        }
        count(\.rtcpPacketsReceived)
        for packet in compound {
            switch packet {
            case let .senderReport(report):
                locked.withLock { $0.reception.recordSenderReport(ntpTimestamp: report.senderInfo.ntpTimestamp, arrival: arrival) }
                recordRoundTrip(report.reportBlocks, arrival: arrival)
            case let .receiverReport(report):
                recordRoundTrip(report.reportBlocks, arrival: arrival)
            case let .extendedReport(report):
                for case let .voipMetrics(block) in report.blocks {
                    monitor.withLock { $0.recordRemoteMetrics(VoIPMetrics(block)) }
                }
            case let .goodbye(goodbye):
                if !owned.remoteSaidGoodbye {
                    owned.remoteSaidGoodbye = true
                    events.yield(.remoteGoodbye(reason: goodbye.reasonText))
                }
            default:
                break
            }
        }
    }

    /// The peer's report on our stream (the block about our SSRC; else its first, as a peer
    /// in a two-party call reports on one source) to the quality monitor and, for FEC sizing,
    /// to the send path; and the round trip it implies.
    private func recordRoundTrip(_ blocks: RTCPReportBlocks, arrival: MediaTime) {
        guard let block = blocks.first(where: { $0.ssrc == localSSRC }) ?? blocks.first else { return }
        monitor.withLock { $0.recordRemoteReport(block, arrival: arrival) }
        reportedLoss.record(fractionLost: block.fractionLost)
        guard let roundTrip = block.roundTripTime(arrival: NTPTimestamp(unixTime: arrival)) else { return }
        locked.withLock { $0.counters.roundTripMilliseconds = roundTrip.milliseconds }
        // The jitter buffer's conversational target prices its delay against the delay the
        // call has outside it: half the fastest recent round trip (the buffer's delay counts
        // from the fastest packet, so the network's queueing is inside it) and one 20 ms
        // packet, in whole milliseconds (calls on one network then share the cost table), as
        // the playout simulator tells it the fastest transit. Only a move of 10 ms or more is
        // passed on (it may compute a table).
        owned.fastestRoundTrip.record(roundTrip)
        let fastest = owned.fastestRoundTrip.fastest ?? roundTrip
        let outside = (fastest.milliseconds / 2 + 20).rounded()
        if abs(outside - (owned.delayOutsideBufferMilliseconds ?? -.infinity)) >= 10 {
            owned.delayOutsideBufferMilliseconds = outside
            jitterBuffer.updateDelayOutsideBuffer(milliseconds: outside)
        }
    }

    /// Removes SRTP in place (the I/O thread's own session, no lock) and returns the plain
    /// length, or counts the failure and returns nil.
    private func unprotect(_ bytes: UnsafeMutableRawBufferPointer, arrival: MediaTime, rtcp: Bool) -> Int? {
        guard owned.inbound != nil else { return bytes.count }
        do {
            return rtcp
                ? try owned.inbound!.unprotectRTCP(in: bytes, length: bytes.count)
                : try owned.inbound!.unprotectRTP(in: bytes, length: bytes.count)
        } catch {
            let failures: Int? = locked.withLock { state in
                switch error {
                case .authenticationFailed:
                    state.counters.authenticationFailures += 1
                    return state.counters.authenticationFailures
                case .replayed, .replayTooOld:
                    // Legitimate peers repeat packets (Linphone sends each RFC 4733 end packet
                    // three times with one sequence number): counted, no alarm.
                    state.counters.replaysDropped += 1
                    return nil
                default:
                    state.counters.malformedDropped += 1
                    return nil
                }
            }
            if let failures { reportSRTPFailure(count: failures, at: arrival) }
            return nil
        }
    }

    /// At most one ``MediaSessionEvent/srtpFailure(count:)`` a second.
    private func reportSRTPFailure(count failures: Int, at now: MediaTime) {
        if let last = owned.lastSRTPFailureReport, (now - last).seconds < 1 { return }
        owned.lastSRTPFailureReport = now
        events.yield(.srtpFailure(count: UInt64(failures)))
    }

    /// Counts a step of the wall clock and says so once (arrivals are already mapped past it).
    private func reportWallClockStep(nanoseconds: Int64) {
        count(\.wallClockSteps)
        events.yield(.wallClockStepped(milliseconds: Double(nanoseconds) / 1_000_000))
    }

    /// Adds one to a counter, under the lock.
    private func count(_ counter: WritableKeyPath<MediaSessionStatistics, Int>) {
        locked.withLock { $0.counters[keyPath: counter] += 1 }
    }

    // MARK: Read by the audio thread

    /// The state.counters so far, with the stream's jitter and loss.
    var statistics: MediaSessionStatistics {
        locked.withLock { state in
            var snapshot = state.counters
            snapshot.jitterMilliseconds = state.reception.jitterMilliseconds
            snapshot.packetsLost = state.reception.cumulativeLost
            return snapshot
        }
    }

    /// A report block about the peer's stream for our next RTCP packet, or nil before it is valid.
    func reportBlock(now: MediaTime) -> RTCPReportBlock? {
        locked.withLock { state in
            guard let ssrc = state.sourceFilter.current, state.reception.isValid else { return nil }
            return state.reception.makeReportBlock(ssrc: ssrc, now: now)
        }
    }

    /// The peer's synchronisation source, once one was accepted.
    var remoteSSRC: UInt32? {
        locked.withLock { state in state.sourceFilter.current }
    }

    /// The time of the last accepted RTP packet, if any.
    var lastMediaTime: MediaTime? {
        let nanoseconds = lastMediaArrival.load(ordering: .relaxed)
        return nanoseconds == .min ? nil : MediaTime(nanoseconds: nanoseconds)
    }
}

/// What the receive path shares with the audio thread, behind its lock.
struct ReceiveState {
    var reception: ReceptionStatistics
    var latchedAddress: SocketAddress?
    var sourceFilter = RemoteSourceFilter()
    var counters = MediaSessionStatistics()
    var receives = true
}

/// What the receive path keeps for the I/O thread alone, used outside any lock.
struct IOThreadState: ~Copyable {
    /// The peer's SRTP session (an SRTP session is single-threaded).
    var inbound: SRTPInboundSession?
    /// The I/O thread's copy of the latched address, checked before unprotecting.
    var latchedAddress: SocketAddress?
    var dtmf = DTMFReceiver()
    var lastSRTPFailureReport: MediaTime?
    var remoteSaidGoodbye = false
    /// The delay outside the jitter buffer last passed to it (ms), from the RTCP round trip.
    var delayOutsideBufferMilliseconds: Double?
    /// The latest round trips, whose fastest half is the delay outside the buffer.
    var fastestRoundTrip = FastestRecentRoundTrip()
    /// Kernel receive timestamps mapped onto media time.
    var arrivals: ArrivalClock

    init(inbound: consuming SRTPInboundSession?, arrivals: ArrivalClock) {
        self.inbound = inbound
        self.arrivals = arrivals
    }
}

/// What the locked part of an RTP packet's reception decided, acted on after the lock.
struct RTPAdmission {
    enum Verdict {
        /// Counted and dropped (foreign, duplicate, unknown payload type, on hold).
        case drop
        /// Into the jitter buffer.
        case audio
        /// To the DTMF receiver.
        case telephoneEvent
    }

    var verdict = Verdict.drop
    /// The address just latched, if this packet latched it.
    var latched: SocketAddress?
    /// The source this packet made current (`from` is nil for the first one); the DTMF
    /// receiver starts again with it.
    var switchedSource: (from: UInt32?, to: UInt32)?
    /// The reception counters for the quality monitor, when the packet was recorded.
    var reception: ReceptionCounters?
}
