import Codecs
import Jitter
import QualityMetrics
import RTP
import Locking

/// The receive path, run on the ``UDPEventLoop``'s I/O thread: demultiplex, SRTP unprotect in
/// place, parse, latch, filter the source, dispatch by payload type, record statistics, and
/// hand audio to the jitter buffer. Anything malformed or forged is counted and dropped.
///
/// `@unchecked Sendable`: the mutable state is in `locked`, behind a lock whose critical sections
/// do no I/O (the audio thread takes it briefly for RTCP reports and timeouts); the SRTP
/// session is the I/O thread's alone.
final class ReceivePath: @unchecked Sendable {
    private let locked: PThreadLock<ReceiveState>
    private let jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>
    private let monitor: PThreadLock<QualityMonitor>
    private let events: AsyncStream<MediaSessionEvent>.Continuation
    /// Where the peer's loss reports go for the send path.
    private let reportedLoss: ReportedLoss
    private let audioPayloadType: UInt8
    private let telephoneEventPayloadType: UInt8?
    private let comfortNoisePayloadType: UInt8?
    private let clockRate: Int
    private let latches: Bool
    /// The origin of the jitter buffer's clock: the call's start, on the clock of the arrivals.
    private let epoch: MediaTime

    /// Only the I/O thread touches it (libsrtp sessions are single-threaded), inside `locked`.
    private var inbound: SRTPInboundSession?

    init(
        media: NegotiatedAudio, inbound: consuming SRTPInboundSession?, jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>,
        monitor: PThreadLock<QualityMonitor>, epoch: MediaTime, latches: Bool, comfortNoisePayloadType: UInt8?,
        events: AsyncStream<MediaSessionEvent>.Continuation, reportedLoss: ReportedLoss = ReportedLoss()
    ) {
        self.reportedLoss = reportedLoss
        self.epoch = epoch
        self.inbound = inbound
        self.monitor = monitor
        self.jitterBuffer = jitterBuffer
        self.events = events
        self.latches = latches
        self.comfortNoisePayloadType = comfortNoisePayloadType
        audioPayloadType = UInt8(truncatingIfNeeded: media.sendCodec.payloadType)
        telephoneEventPayloadType = media.telephoneEventPayloadType.map { UInt8(truncatingIfNeeded: $0) }
        clockRate = media.sendCodec.map.clockRate
        locked = PThreadLock(ReceiveState(reception: ReceptionStatistics(clockRate: clockRate)))
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
        let arrival = datagram.arrivalNanoseconds > 0 ? MediaTime(nanoseconds: datagram.arrivalNanoseconds) : MediaClock.now()
        locked.withLock { state in
            guard !datagram.isTruncated, let source = datagram.source else {
                state.counters.malformedDropped += 1
                return
            }
            switch DatagramClassifier.classify(UnsafeRawBufferPointer(datagram.bytes)) {
            case .rtp: receiveRTP(datagram.bytes, from: source, arrival: arrival, state: &state)
            case .rtcp: receiveRTCP(datagram.bytes, arrival: arrival, state: &state)
            default: state.counters.malformedDropped += 1
            }
        }
    }

    private func receiveRTP(_ bytes: UnsafeMutableRawBufferPointer, from source: SocketAddress, arrival: MediaTime, state: inout ReceiveState) {
        if latches, let latched = state.latchedAddress, latched != source {
            state.counters.foreignAddressDropped += 1
            return
        }
        guard let length = unprotect(bytes, arrival: arrival, rtcp: false, state: &state) else { return }
        let packet: RTPPacket
        do {
            packet = try RTPPacket(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            state.counters.malformedDropped += 1
            return
        }
        if latches, state.latchedAddress == nil {
            state.latchedAddress = source
            events.yield(.remoteAddressLatched(source))
        }
        switch state.sourceFilter.admit(ssrc: packet.ssrc, sequence: packet.sequenceNumber.rawValue) {
        case .foreign:
            state.counters.foreignSSRCDropped += 1
            return
        case let .switched(from, to):
            state.reception = ReceptionStatistics(clockRate: clockRate)
            state.dtmf = DTMFReceiver()
            events.yield(.remoteSSRCChanged(from: from, to: to))
        case .current:
            break
        }
        let payloadType = packet.payloadType
        let isAudio = payloadType == audioPayloadType || payloadType == comfortNoisePayloadType
        guard isAudio || payloadType == telephoneEventPayloadType else {
            state.counters.unknownPayloadTypeDropped += 1
            return
        }
        // Telephone events repeat their start timestamp; only audio feeds the jitter estimate.
        let outcome = state.reception.record(packet, arrival: arrival, updatesJitter: isAudio)
        let reported = ReceptionCounters(state.reception)
        monitor.withLock { $0.recordArrival(reported) }
        if outcome == .duplicate {
            state.counters.duplicatesDropped += 1
            return
        }
        guard state.receives else { return }
        state.counters.rtpPacketsReceived += 1
        state.lastMediaArrival = arrival
        if isAudio {
            if !jitterBuffer.insert(packet, arrivalMilliseconds: (arrival - epoch).milliseconds) {
                state.counters.jitterInboxDropped += 1
            }
        } else {
            receiveTelephoneEvent(packet, state: &state)
        }
    }

    private func receiveTelephoneEvent(_ packet: RTPPacket, state: inout ReceiveState) {
        guard let payload = try? DTMFEventPayload(parsing: packet.payload) else {
            state.counters.malformedDropped += 1
            return
        }
        for press in state.dtmf.receive(payload, timestamp: packet.timestamp) {
            if let character = DTMFEventCode.character(for: press.event) {
                events.yield(.dtmfReceived(character))
            }
        }
    }

    private func receiveRTCP(_ bytes: UnsafeMutableRawBufferPointer, arrival: MediaTime, state: inout ReceiveState) {
        guard let length = unprotect(bytes, arrival: arrival, rtcp: true, state: &state) else { return }
        let compound: RTCPCompoundPacket
        do {
            compound = try RTCPCompoundPacket(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            state.counters.malformedDropped += 1
            return
        }
        state.counters.rtcpPacketsReceived += 1
        for packet in compound {
            switch packet {
            case let .senderReport(report):
                state.reception.recordSenderReport(ntpTimestamp: report.senderInfo.ntpTimestamp, arrival: arrival)
                recordRoundTrip(report.reportBlocks, arrival: arrival, state: &state)
            case let .receiverReport(report):
                recordRoundTrip(report.reportBlocks, arrival: arrival, state: &state)
            case let .extendedReport(report):
                for case let .voipMetrics(block) in report.blocks {
                    monitor.withLock { $0.recordRemoteMetrics(VoIPMetrics(block)) }
                }
            case let .goodbye(goodbye):
                if !state.remoteSaidGoodbye {
                    state.remoteSaidGoodbye = true
                    events.yield(.remoteGoodbye(reason: goodbye.reasonText))
                }
            default:
                break
            }
        }
    }

    /// The peer's report on our stream (its first block: a peer reports on one source only,
    /// ours) to the quality monitor and, for FEC sizing, to the send path; and the round trip
    /// it implies.
    private func recordRoundTrip(_ blocks: RTCPReportBlocks, arrival: MediaTime, state: inout ReceiveState) {
        guard let block = blocks.first else { return }
        monitor.withLock { $0.recordRemoteReport(block, arrival: arrival) }
        reportedLoss.record(fractionLost: block.fractionLost)
        guard let roundTrip = block.roundTripTime(arrival: NTPTimestamp(unixTime: arrival)) else { return }
        state.counters.roundTripMilliseconds = roundTrip.milliseconds
        // The jitter buffer's conversational target prices its delay against the delay the
        // call has outside it: half the round trip and one 20 ms packet. Only a move of 10 ms
        // or more is passed on (it recomputes a table).
        let outside = roundTrip.milliseconds / 2 + 20
        if abs(outside - (state.delayOutsideBufferMilliseconds ?? -.infinity)) >= 10 {
            state.delayOutsideBufferMilliseconds = outside
            jitterBuffer.updateDelayOutsideBuffer(milliseconds: outside)
        }
    }

    /// Removes SRTP in place and returns the plain length, or counts the failure and returns nil.
    private func unprotect(_ bytes: UnsafeMutableRawBufferPointer, arrival: MediaTime, rtcp: Bool, state: inout ReceiveState) -> Int? {
        guard inbound != nil else { return bytes.count }
        do {
            return rtcp
                ? try inbound!.unprotectRTCP(in: bytes, length: bytes.count)
                : try inbound!.unprotectRTP(in: bytes, length: bytes.count)
        } catch {
            switch error {
            case .authenticationFailed: state.counters.authenticationFailures += 1
            case .replayed, .replayTooOld: state.counters.replaysDropped += 1
            default: state.counters.malformedDropped += 1
            }
            reportSRTPFailure(at: arrival, state: &state)
            return nil
        }
    }

    private func reportSRTPFailure(at now: MediaTime, state: inout ReceiveState) {
        if let last = state.lastSRTPFailureReport, (now - last).seconds < 1 { return }
        state.lastSRTPFailureReport = now
        events.yield(.srtpFailure(count: UInt64(state.counters.authenticationFailures + state.counters.replaysDropped)))
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
        locked.withLock { state in state.lastMediaArrival }
    }
}

/// What the receive path keeps between datagrams, behind its lock.
struct ReceiveState {
    var reception: ReceptionStatistics
    var latchedAddress: SocketAddress?
    var sourceFilter = RemoteSourceFilter()
    var dtmf = DTMFReceiver()
    var counters = MediaSessionStatistics()
    var lastMediaArrival: MediaTime?
    var lastSRTPFailureReport: MediaTime?
    var remoteSaidGoodbye = false
    var receives = true
    /// The delay outside the jitter buffer last passed to it (ms), from the RTCP round trip.
    var delayOutsideBufferMilliseconds: Double?
}
