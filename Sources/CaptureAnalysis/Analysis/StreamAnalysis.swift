import QualityMetrics
import PlayoutLab
import RTP

/// The running analysis of one RTP stream: a fixed set of accumulators and a bounded timeline,
/// whatever the stream's length.
struct StreamAnalysis {
    let key: RTPStreamKey
    let foundBy: StreamDiscovery
    let firstFrame: Int
    private(set) var firstArrivalNanoseconds: Int64 = 0
    private(set) var lastArrivalNanoseconds: Int64 = 0
    private(set) var packets = 0
    private(set) var payloadTypes: [UInt8] = []
    private(set) var encodingNames: [String] = []
    /// The stream's media format: the first payload that is neither comfort noise nor an event.
    private(set) var mediaFormat: PayloadFormat?
    /// The payload type of ``mediaFormat``.
    private(set) var mediaPayloadType: UInt8?
    /// Whether to replay the stream through our jitter buffer, and where to write what was heard.
    let listening: ListeningOptions?
    /// Payload octets of the media payload type, for the bitrate.
    private(set) var mediaPayloadBytes = 0
    /// Packets of the media payload type.
    private(set) var mediaPackets = 0
    /// The replay through our jitter buffer, from the first readable media packet on (an
    /// encrypted stream none of whose packets decrypted gets none).
    private(set) var listener: StreamListener?
    /// Where each packet goes for ``listener``, set with it: the listener itself, or its lane
    /// when the replays run on worker threads (``ListeningOptions/lanes``). Unretained, so that
    /// a packet moves no reference count: ``listener`` and ``listening`` hold both.
    private var route: ReplayRoute?

    private enum ReplayRoute {
        case direct(Unmanaged<StreamListener>)
        case lane(Int, of: Unmanaged<ReplayLanes>, for: Unmanaged<StreamListener>)
    }
    /// RFC 3550 statistics; made again at the first packet, once its clock rate is known.
    private(set) var reception = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
    private(set) var wireshark = WiresharkRTPStreamStatistics()
    private(set) var burstGap = BurstGapCounter()
    private(set) var lossTransitions = BurstRatio.TransitionCounts()
    private(set) var keyPresses: [(press: DTMFKeyPress, arrivalNanoseconds: Int64)] = []
    private(set) var timeline: StreamTimeline
    private var dtmf = DTMFReceiver()
    /// The payload type of the last packet and what it resolved to, so that a stream pays for
    /// the lookup only when its payload type changes.
    private var current = CurrentPayload(
        payloadType: nil, format: nil, clock: .unknown, isTelephoneEvent: false, mayCarryUnannouncedEvents: false)

    private struct CurrentPayload {
        var payloadType: UInt8?
        var format: PayloadFormat?
        var clock: WiresharkPayloadClock
        /// The SDP names the payload type `telephone-event`.
        var isTelephoneEvent: Bool
        /// Nothing names the payload type, which is dynamic and not the media's, beside known
        /// media: its packets are events if their payloads are (``isTelephoneEvent(_:)``).
        var mayCarryUnannouncedEvents: Bool
    }

    /// At most this many key presses are kept per stream.
    static let keyPressCapacity = 1000
    /// At most this many distinct payload types are listed per stream.
    static let payloadTypeCapacity = 16

    init(key: RTPStreamKey, foundBy: StreamDiscovery, firstFrame: Int, timelineCapacity: Int, listening: ListeningOptions?) {
        self.key = key
        self.listening = listening
        self.foundBy = foundBy
        self.firstFrame = firstFrame
        timeline = StreamTimeline(capacity: timelineCapacity)
    }

    /// The RTP clock rate of the media format, when known.
    var clockRate: UInt32? { mediaFormat?.clockRate ?? current.clock.hertz.nonZero }

    /// Takes the format of the payload type the next packets carry (`nil`: unknown).
    private mutating func usePayloadType(_ payloadType: UInt8, format: PayloadFormat?) {
        let clock =
            payloadType < 96
            ? WiresharkPayloadClock.forPayloadType(payloadType)
            : WiresharkPayloadClock.forPayloadType(
                payloadType, encodingName: format?.encodingName, sdpClockRate: format?.clockRate)
        current = CurrentPayload(
            payloadType: payloadType, format: format, clock: clock, isTelephoneEvent: format?.isTelephoneEvent ?? false,
            mayCarryUnannouncedEvents: format == nil && payloadType >= 96 && mediaPayloadType != nil
                && payloadType != mediaPayloadType)
        if !payloadTypes.contains(payloadType), payloadTypes.count < Self.payloadTypeCapacity {
            payloadTypes.append(payloadType)
            if let name = format?.encodingName, !encodingNames.contains(name) { encodingNames.append(name) }
        }
        if mediaFormat == nil, let format, !format.isTelephoneEvent, format.encodingName != "CN" {
            mediaFormat = format
            mediaPayloadType = payloadType
        }
    }

    /// Takes in the stream's next packet; `payload` is its (decrypted) payload, `nil` when the
    /// capture no longer or never had it. Its payload type is looked up in `formats` when it
    /// differs from the previous packet's.
    mutating func record(_ packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, formats: PayloadFormatDirectory) {
        if current.payloadType != packet.payloadType {
            usePayloadType(
                packet.payloadType, format: formats.format(of: packet.payloadType, from: key.source, to: key.destination))
        }
        var packet = packet
        packet.isTelephoneEvent = isTelephoneEvent(packet)
        let clock = current.clock
        if packets == 0 {
            firstArrivalNanoseconds = packet.arrivalNanoseconds
            let rate = current.format?.clockRate ?? clock.hertz
            reception = ReceptionStatistics(clockRate: Int(rate == 0 ? 8000 : rate), minimumSequential: 1)
        }
        packets += 1
        lastArrivalNanoseconds = packet.arrivalNanoseconds
        if packet.payloadType == mediaPayloadType {
            mediaPayloadBytes += packet.payloadLength
            mediaPackets += 1
        }
        let elapsed = packet.arrivalNanoseconds &- firstArrivalNanoseconds

        let analysis = wireshark.record(
            arrivalNanoseconds: packet.arrivalNanoseconds, sequenceNumber: packet.sequenceNumber,
            timestamp: packet.timestamp, payloadType: packet.payloadType, marker: packet.marker, clock: clock)
        let (gap, late) = recordReception(packet)
        let regular = analysis.flags.isDisjoint(
            with: [.first, .marker, .comfortNoise, .followsComfortNoise, .wrongTimestamp])
        let jitter = clock.hertz == 0 && mediaFormat?.clockRate == nil ? 0 : reception.jitterMilliseconds
        timeline.withBucket(atNanoseconds: elapsed) { bucket in
            bucket.packets += 1
            bucket.lost += gap
            if late { bucket.late += 1 }
            if regular { bucket.includeDelta(analysis.deltaMilliseconds) }
            bucket.maximumJitterMilliseconds = max(bucket.maximumJitterMilliseconds, jitter)
        }
        if packet.isTelephoneEvent, let event = packet.telephoneEvent {
            for press in dtmf.receive(event, timestamp: RTPTimestamp(packet.timestamp)) {
                keep(press, arrivalNanoseconds: packet.arrivalNanoseconds)
            }
        }
        listen(to: packet, payload: payload, formats: formats)
    }

    /// Whether `packet` is an RFC 4733 telephone event: its payload type is `telephone-event`
    /// in the SDP, or, where neither the SDP nor RFC 3551 names its payload type (no SDP was
    /// seen), a dynamic type other than the stream's media whose payload is one event block of
    /// a DTMF key (4 bytes, event 0–15) beside known media. The Wireshark figures do not
    /// change: they follow the SDP alone, as tshark's do.
    private func isTelephoneEvent(_ packet: RTPPacketSummary) -> Bool {
        if current.isTelephoneEvent { return true }
        guard current.mayCarryUnannouncedEvents, packet.payloadLength == DTMFEventPayload.byteCount,
            let event = packet.telephoneEvent
        else { return false }
        return event.event <= Self.highestDTMFEvent
    }

    /// The highest RFC 4733 event of a DTMF key (`D`).
    static let highestDTMFEvent: UInt8 = 15

    /// Replays the packet through the stream's jitter buffer, made at the first media packet
    /// with the telephone-event formats the SDP announced for the stream's direction.
    private mutating func listen(to packet: RTPPacketSummary, payload: UnsafeRawBufferPointer?, formats: PayloadFormatDirectory) {
        if route == nil {
            guard let listening, let mediaFormat, let mediaPayloadType, packet.payloadType == mediaPayloadType,
                packet.payloadIsReadable,
                let listener = StreamListener.make(
                    format: mediaFormat, payloadType: mediaPayloadType, clockRate: clockRate,
                    telephoneEvents: formats.telephoneEventFormats(from: key.source, to: key.destination),
                    wavPath: listening.wavPath(for: key))
            else { return }
            self.listener = listener
            if let lanes = listening.lanes {
                route = .lane(lanes.assignLane(to: listener), of: .passUnretained(lanes), for: .passUnretained(listener))
            } else {
                route = .direct(.passUnretained(listener))
            }
        }
        switch route {
        case .direct(let listener):
            listener._withUnsafeGuaranteedRef { $0.receive(packet, payload: payload) }
        case .lane(let lane, let lanes, let listener):
            lanes._withUnsafeGuaranteedRef { $0.receive(packet, payload: payload, by: listener, lane: lane) }
        case nil:
            break
        }
    }

    /// Ends the stream's replay (on its lane when the replays run on worker threads).
    func finishListening() {
        switch route {
        case .direct(let listener):
            listener._withUnsafeGuaranteedRef { _ = $0.finish() }
        case .lane(let lane, let lanes, let listener):
            lanes._withUnsafeGuaranteedRef { $0.finish(listener, lane: lane) }
        case nil:
            break
        }
    }

    /// The key presses, the one still pending at the end of the capture included.
    mutating func finishKeyPresses() -> [(press: DTMFKeyPress, arrivalNanoseconds: Int64)] {
        if let press = dtmf.flush() { keep(press, arrivalNanoseconds: lastArrivalNanoseconds) }
        return keyPresses
    }

    private mutating func keep(_ press: DTMFKeyPress, arrivalNanoseconds: Int64) {
        if keyPresses.count < Self.keyPressCapacity { keyPresses.append((press, arrivalNanoseconds)) }
    }

    /// RFC 3550 reception statistics and the burst/gap model, fed in arrival order: a forward
    /// jump of n sequence numbers records n − 1 losses. Returns the packets found missing and
    /// whether this packet came late (reordered or duplicated). A late packet stays counted
    /// as lost in the burst/gap model, as a receiver without a jitter buffer would count it.
    private mutating func recordReception(_ packet: RTPPacketSummary) -> (gap: Int, late: Bool) {
        let highestBefore = reception.extendedHighestSequence
        let wasValid = reception.isValid
        let outcome = reception.record(
            sequence: SequenceNumber(packet.sequenceNumber), timestamp: RTPTimestamp(packet.timestamp),
            arrival: MediaTime(nanoseconds: packet.arrivalNanoseconds))
        switch outcome {
        case .inOrder:
            let jump = wasValid ? reception.extendedHighestSequence - highestBefore - 1 : 0
            let gap = Int(min(max(jump, 0), Int64(ReceptionStatistics.maxDropout)))
            for _ in 0..<gap {
                burstGap.record(.lost)
                lossTransitions.record(lost: true)
            }
            burstGap.record(.received)
            lossTransitions.record(lost: false)
            return (gap, false)
        case .restarted:
            burstGap.record(.received)
            lossTransitions.record(lost: false)
            return (0, false)
        case .reordered, .duplicate:
            return (0, true)
        case .probation, .badSequence:
            return (0, false)
        }
    }
}

/// How the analyzer found a stream.
public enum StreamDiscovery: String, Sendable, Hashable, Codable {
    /// Its endpoint was announced in a SIP message's SDP body.
    case sdp
    /// Its packets passed the RTP heuristic (see ``CaptureAnalyzer``).
    case heuristic
    /// Its first packet authenticated under an SRTP key given to the analyzer.
    case srtpKey = "srtp_key"
}

extension UInt32 {
    fileprivate var nonZero: UInt32? { self == 0 ? nil : self }
}
