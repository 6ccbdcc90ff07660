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
    private(set) var reception: ReceptionStatistics?
    private(set) var wireshark = WiresharkRTPStreamStatistics()
    private(set) var burstGap = BurstGapCounter()
    private(set) var lossTransitions = BurstRatio.TransitionCounts()
    private(set) var keyPresses: [(press: DTMFKeyPress, arrivalNanoseconds: Int64)] = []
    private(set) var timeline: StreamTimeline
    private var dtmf = DTMFReceiver()
    private var cached: (payloadType: UInt8, format: PayloadFormat?, clock: WiresharkPayloadClock)?

    /// At most this many key presses are kept per stream.
    static let keyPressCapacity = 1000
    /// At most this many distinct payload types are listed per stream.
    static let payloadTypeCapacity = 16

    init(key: RTPStreamKey, foundBy: StreamDiscovery, firstFrame: Int, timelineCapacity: Int) {
        self.key = key
        self.foundBy = foundBy
        self.firstFrame = firstFrame
        timeline = StreamTimeline(capacity: timelineCapacity)
    }

    /// The RTP clock rate of the media format, when known.
    var clockRate: UInt32? { mediaFormat?.clockRate ?? cached?.clock.hertz.nonZero }

    /// Takes in the stream's next packet; `format` resolves a payload type the stream has not
    /// used just before.
    mutating func record(_ packet: RTPPacketSummary, format resolve: (UInt8) -> PayloadFormat?) {
        let (format, clock) = payloadFormat(packet.payloadType, resolve: resolve)
        if packets == 0 { firstArrivalNanoseconds = packet.arrivalNanoseconds }
        packets += 1
        lastArrivalNanoseconds = packet.arrivalNanoseconds
        let elapsed = packet.arrivalNanoseconds &- firstArrivalNanoseconds

        let analysis = wireshark.record(
            arrivalNanoseconds: packet.arrivalNanoseconds, sequenceNumber: packet.sequenceNumber,
            timestamp: packet.timestamp, payloadType: packet.payloadType, marker: packet.marker, clock: clock)
        let (gap, late) = recordReception(packet, clockRate: format?.clockRate ?? clock.hertz)
        let regular = analysis.flags.isDisjoint(
            with: [.first, .marker, .comfortNoise, .followsComfortNoise, .wrongTimestamp])
        let jitter = reception.flatMap { clockRate == nil ? nil : $0.jitterMilliseconds } ?? 0
        timeline.withBucket(atNanoseconds: elapsed) { bucket in
            bucket.packets += 1
            bucket.lost += gap
            if late { bucket.late += 1 }
            if regular { bucket.includeDelta(analysis.deltaMilliseconds) }
            bucket.maximumJitterMilliseconds = max(bucket.maximumJitterMilliseconds, jitter)
        }
        if format?.isTelephoneEvent == true, let event = packet.telephoneEvent {
            for press in dtmf.receive(event, timestamp: RTPTimestamp(packet.timestamp)) {
                keep(press, arrivalNanoseconds: packet.arrivalNanoseconds)
            }
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
    private mutating func recordReception(_ packet: RTPPacketSummary, clockRate: UInt32) -> (gap: Int, late: Bool) {
        if reception == nil {
            reception = ReceptionStatistics(clockRate: Int(clockRate == 0 ? 8000 : clockRate), minimumSequential: 1)
        }
        guard var statistics = reception else { return (0, false) }
        let highestBefore = statistics.extendedHighestSequence
        let wasValid = statistics.isValid
        let outcome = statistics.record(
            sequence: SequenceNumber(packet.sequenceNumber), timestamp: RTPTimestamp(packet.timestamp),
            arrival: MediaTime(nanoseconds: packet.arrivalNanoseconds))
        reception = statistics
        switch outcome {
        case .inOrder:
            let jump = wasValid ? statistics.extendedHighestSequence - highestBefore - 1 : 0
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

    private mutating func payloadFormat(
        _ payloadType: UInt8, resolve: (UInt8) -> PayloadFormat?
    ) -> (PayloadFormat?, WiresharkPayloadClock) {
        if let cached, cached.payloadType == payloadType { return (cached.format, cached.clock) }
        let format = resolve(payloadType)
        let clock = payloadType < 96
            ? WiresharkPayloadClock.forPayloadType(payloadType)
            : WiresharkPayloadClock.forPayloadType(
                payloadType, encodingName: format?.encodingName, sdpClockRate: format?.clockRate)
        cached = (payloadType, format, clock)
        if !payloadTypes.contains(payloadType), payloadTypes.count < Self.payloadTypeCapacity {
            payloadTypes.append(payloadType)
            if let name = format?.encodingName, !encodingNames.contains(name) { encodingNames.append(name) }
        }
        if mediaFormat == nil, let format, !format.isTelephoneEvent, format.encodingName != "CN" {
            mediaFormat = format
        }
        return (format, clock)
    }
}

/// How the analyzer found a stream.
public enum StreamDiscovery: String, Sendable, Hashable, Codable {
    /// Its endpoint was announced in a SIP message's SDP body.
    case sdp
    /// Its packets passed the RTP heuristic (see ``CaptureAnalyzer``).
    case heuristic
}

extension UInt32 {
    fileprivate var nonZero: UInt32? { self == 0 ? nil : self }
}
