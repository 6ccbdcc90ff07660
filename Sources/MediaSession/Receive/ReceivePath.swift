import Codecs
import Jitter
import QualityMetrics
import RTP

/// The receive path, run on the ``UDPEventLoop``'s I/O thread: demultiplex, SRTP unprotect in
/// place, parse, latch, filter the source, dispatch by payload type, record statistics, and
/// hand audio to the jitter buffer. Anything malformed or forged is counted and dropped.
///
/// `@unchecked Sendable`: every mutable property is touched only inside `lock`, whose critical
/// sections do no I/O (the audio thread takes it briefly for RTCP reports and timeouts).
final class ReceivePath: @unchecked Sendable {
    private let lock = Lock(())
    private let jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>
    private let monitor: Lock<QualityMonitor>
    private let events: AsyncStream<MediaSessionEvent>.Continuation
    private let audioPayloadType: UInt8
    private let telephoneEventPayloadType: UInt8?
    private let comfortNoisePayloadType: UInt8?
    private let clockRate: Int
    private let latches: Bool

    private var inbound: SRTPInboundSession?
    private var latchedAddress: SocketAddress?
    private var sourceFilter = RemoteSourceFilter()
    private var reception: ReceptionStatistics
    private var dtmf = DTMFReceiver()
    private var counters = MediaSessionStatistics()
    private var lastMediaArrival: MediaTime?
    private var lastSRTPFailureReport: MediaTime?
    private var remoteSaidGoodbye = false
    private var receives = true

    init(
        media: NegotiatedAudio, inbound: consuming SRTPInboundSession?, jitterBuffer: SynchronizedJitterBuffer<SessionDecoder>,
        monitor: Lock<QualityMonitor>, latches: Bool, comfortNoisePayloadType: UInt8?,
        events: AsyncStream<MediaSessionEvent>.Continuation
    ) {
        self.inbound = inbound
        self.monitor = monitor
        self.jitterBuffer = jitterBuffer
        self.events = events
        self.latches = latches
        self.comfortNoisePayloadType = comfortNoisePayloadType
        audioPayloadType = UInt8(truncatingIfNeeded: media.sendCodec.payloadType)
        telephoneEventPayloadType = media.telephoneEventPayloadType.map { UInt8(truncatingIfNeeded: $0) }
        clockRate = media.sendCodec.map.clockRate
        reception = ReceptionStatistics(clockRate: clockRate)
    }

    /// The peer's address once latched (symmetric RTP), else nil.
    var latchedSource: SocketAddress? {
        lock.withLock { _ in latchedAddress }
    }

    /// Whether received media is played (false on hold: packets are still authenticated and
    /// checked, then dropped).
    func setReceiving(_ receiving: Bool) {
        lock.withLock { _ in receives = receiving }
    }

    /// Takes one datagram on the I/O thread.
    func receive(_ datagram: ReceivedDatagram) {
        let arrival = datagram.arrivalNanoseconds > 0 ? MediaTime(nanoseconds: datagram.arrivalNanoseconds) : MediaClock.now()
        lock.withLock { _ in
            guard !datagram.isTruncated, let source = datagram.source else {
                counters.malformedDropped += 1
                return
            }
            switch DatagramClassifier.classify(UnsafeRawBufferPointer(datagram.bytes)) {
            case .rtp: receiveRTP(datagram.bytes, from: source, arrival: arrival)
            case .rtcp: receiveRTCP(datagram.bytes, arrival: arrival)
            default: counters.malformedDropped += 1
            }
        }
    }

    private func receiveRTP(_ bytes: UnsafeMutableRawBufferPointer, from source: SocketAddress, arrival: MediaTime) {
        if latches, let latchedAddress, latchedAddress != source {
            counters.foreignAddressDropped += 1
            return
        }
        guard let length = unprotect(bytes, arrival: arrival, rtcp: false) else { return }
        let packet: RTPPacket
        do {
            packet = try RTPPacket(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            counters.malformedDropped += 1
            return
        }
        if latches, latchedAddress == nil {
            latchedAddress = source
            events.yield(.remoteAddressLatched(source))
        }
        switch sourceFilter.admit(ssrc: packet.ssrc, sequence: packet.sequenceNumber.rawValue) {
        case .foreign:
            counters.foreignSSRCDropped += 1
            return
        case let .switched(from, to):
            reception = ReceptionStatistics(clockRate: clockRate)
            dtmf = DTMFReceiver()
            events.yield(.remoteSSRCChanged(from: from, to: to))
        case .current:
            break
        }
        let payloadType = packet.payloadType
        let isAudio = payloadType == audioPayloadType || payloadType == comfortNoisePayloadType
        guard isAudio || payloadType == telephoneEventPayloadType else {
            counters.unknownPayloadTypeDropped += 1
            return
        }
        let outcome = reception.record(packet, arrival: arrival)
        let reported = ReceptionCounters(reception)
        monitor.withLock { $0.recordArrival(reported) }
        if outcome == .duplicate {
            counters.duplicatesDropped += 1
            return
        }
        guard receives else { return }
        counters.rtpPacketsReceived += 1
        lastMediaArrival = arrival
        if isAudio {
            let incoming = IncomingPacket(
                sequenceNumber: packet.sequenceNumber.rawValue, timestamp: packet.timestamp.rawValue, marker: packet.marker,
                payloadType: payloadType, ssrc: packet.ssrc, payload: packet.payload
            )
            if !jitterBuffer.insert(incoming, arrivalMilliseconds: arrival.milliseconds) {
                counters.jitterInboxDropped += 1
            }
        } else {
            receiveTelephoneEvent(packet)
        }
    }

    private func receiveTelephoneEvent(_ packet: RTPPacket) {
        guard let payload = try? DTMFEventPayload(parsing: packet.payload) else {
            counters.malformedDropped += 1
            return
        }
        for press in dtmf.receive(payload, timestamp: packet.timestamp) {
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
            counters.malformedDropped += 1
            return
        }
        counters.rtcpPacketsReceived += 1
        for packet in compound {
            switch packet {
            case let .senderReport(report):
                reception.recordSenderReport(ntpTimestamp: report.senderInfo.ntpTimestamp, arrival: arrival)
                recordRoundTrip(report.reportBlocks, arrival: arrival)
            case let .receiverReport(report):
                recordRoundTrip(report.reportBlocks, arrival: arrival)
            case let .extendedReport(report):
                for case let .voipMetrics(block) in report.blocks {
                    monitor.withLock { $0.recordRemoteMetrics(VoIPMetrics(block)) }
                }
            case let .goodbye(goodbye):
                if !remoteSaidGoodbye {
                    remoteSaidGoodbye = true
                    events.yield(.remoteGoodbye(reason: goodbye.reasonText))
                }
            default:
                break
            }
        }
    }

    /// The peer's report on our stream (its first block: a peer reports on one source only,
    /// ours) to the quality monitor, and the round trip it implies.
    private func recordRoundTrip(_ blocks: RTCPReportBlocks, arrival: MediaTime) {
        guard let block = blocks.first else { return }
        monitor.withLock { $0.recordRemoteReport(block, arrival: arrival) }
        guard let roundTrip = block.roundTripTime(arrival: NTPTimestamp(unixTime: arrival)) else { return }
        counters.roundTripMilliseconds = roundTrip.milliseconds
    }

    /// Removes SRTP in place and returns the plain length, or counts the failure and returns nil.
    private func unprotect(_ bytes: UnsafeMutableRawBufferPointer, arrival: MediaTime, rtcp: Bool) -> Int? {
        guard inbound != nil else { return bytes.count }
        do {
            return rtcp
                ? try inbound!.unprotectRTCP(in: bytes, length: bytes.count)
                : try inbound!.unprotectRTP(in: bytes, length: bytes.count)
        } catch {
            switch error {
            case .authenticationFailed: counters.authenticationFailures += 1
            case .replayed, .replayTooOld: counters.replaysDropped += 1
            default: counters.malformedDropped += 1
            }
            reportSRTPFailure(at: arrival)
            return nil
        }
    }

    private func reportSRTPFailure(at now: MediaTime) {
        if let last = lastSRTPFailureReport, (now - last).seconds < 1 { return }
        lastSRTPFailureReport = now
        events.yield(.srtpFailure(count: UInt64(counters.authenticationFailures + counters.replaysDropped)))
    }

    // MARK: Read by the audio thread

    /// The counters so far, with the stream's jitter and loss.
    var statistics: MediaSessionStatistics {
        lock.withLock { _ in
            var snapshot = counters
            snapshot.jitterMilliseconds = reception.jitterMilliseconds
            snapshot.packetsLost = reception.cumulativeLost
            return snapshot
        }
    }

    /// A report block about the peer's stream for our next RTCP packet, or nil before it is valid.
    func reportBlock(now: MediaTime) -> RTCPReportBlock? {
        lock.withLock { _ in
            guard let ssrc = sourceFilter.current, reception.isValid else { return nil }
            return reception.makeReportBlock(ssrc: ssrc, now: now)
        }
    }

    /// The peer's synchronisation source, once one was accepted.
    var remoteSSRC: UInt32? {
        lock.withLock { _ in sourceFilter.current }
    }

    /// The time of the last accepted RTP packet, if any.
    var lastMediaTime: MediaTime? {
        lock.withLock { _ in lastMediaArrival }
    }
}
