/// What ``ReceptionStatistics/record(sequence:timestamp:arrival:updatesJitter:)`` made of a packet.
public enum ReceptionOutcome: Sendable, Equatable {
    /// The next packet in order, or one after a gap of less than MAX_DROPOUT.
    case inOrder
    /// A packet older than the highest received, not seen before (reordered or late).
    case reordered
    /// A packet seen before.
    case duplicate
    /// The source is still on probation (RFC 3550 A.1): the packet is not counted yet.
    case probation
    /// A jump of more than MAX_DROPOUT: the packet is not counted, and if the next one follows
    /// it the source is taken to have restarted.
    case badSequence
    /// The packet confirmed a big jump: the statistics were restarted from it.
    case restarted
}

/// Reception statistics of one RTP source, following RFC 3550 A.1 (sequence validation), A.3
/// (loss) and A.8 (interarrival jitter).
///
/// Feed it every packet of the source with its arrival time, then ask for a report block
/// (once per RTCP interval) or read the running figures. Duplicates and reordered packets are
/// counted apart, using a fixed 128-packet window: nothing is allocated.
///
/// As in RFC 3550, ``received`` counts duplicates, so ``cumulativeLost`` (expected − received)
/// can go negative when packets are duplicated; ``duplicates`` lets a caller take them out.
public struct ReceptionStatistics: Sendable {
    /// The RTP clock rate of the source's payload, in Hz.
    public let clockRate: Int
    /// Sequential packets needed before a source is valid (MIN_SEQUENTIAL; 1 accepts the first).
    public let minimumSequential: Int

    /// MAX_DROPOUT (RFC 3550 A.1): forward jumps shorter than this are loss; longer ones may be
    /// a restart.
    public static let maxDropout: UInt16 = 3000
    /// MAX_MISORDER (RFC 3550 A.1): backward jumps shorter than this are reordering; longer ones
    /// may be a restart.
    public static let maxMisorder: UInt16 = 100

    private var started = false
    private var probation = 0
    private var maxSequence: UInt16 = 0
    private var cycles: Int64 = 0
    private var baseSequence: UInt16 = 0
    /// The sequence number that would confirm a restart (nil: none pending).
    private var badSequence: UInt16?
    private var expectedPrior: Int64 = 0
    private var receivedPrior: Int64 = 0
    private var window = RecentSequenceWindow()
    private var previous: (timestamp: RTPTimestamp, arrival: MediaTime)?
    private var lastSenderReport: (middle32: UInt32, arrival: MediaTime)?

    /// Packets counted (duplicates included), since the source became valid.
    public private(set) var received: Int64 = 0
    /// Duplicated packets.
    public private(set) var duplicates: Int64 = 0
    /// Packets that arrived after a later one (not duplicates).
    public private(set) var reordered: Int64 = 0
    /// The interarrival jitter of RFC 3550 A.8, in timestamp units.
    public private(set) var jitter: Double = 0
    /// Payload octets of the media packets counted by ``record(_:arrival:updatesJitter:)``
    /// (duplicates and telephone events excluded), for the stream's bitrate.
    public private(set) var mediaPayloadOctets: Int64 = 0
    /// The media packets whose payload ``mediaPayloadOctets`` counts.
    public private(set) var mediaPayloadPackets: Int64 = 0

    /// Statistics for a source whose payload clock runs at `clockRate` Hz.
    public init(clockRate: Int, minimumSequential: Int = 2) {
        self.clockRate = max(clockRate, 1)
        self.minimumSequential = max(minimumSequential, 1)
    }

    /// Whether the source passed probation.
    public var isValid: Bool { started && probation == 0 }
    /// The highest sequence number received, extended with its wrap count (RFC 3550 A.3).
    public var extendedHighestSequence: Int64 { isValid ? cycles + Int64(maxSequence) : 0 }
    /// Packets expected: from the first valid sequence number to the highest.
    public var expected: Int64 { isValid ? extendedHighestSequence - Int64(baseSequence) + 1 : 0 }
    /// Packets lost since the source became valid (negative when duplicates outnumber losses).
    public var cumulativeLost: Int64 { expected - received }
    /// The interarrival jitter in milliseconds.
    public var jitterMilliseconds: Double { jitter * 1000 / Double(clockRate) }

    /// Counts one packet of the source.
    ///
    /// - Parameters:
    ///   - sequence: the packet's sequence number.
    ///   - timestamp: its RTP timestamp.
    ///   - arrival: when it arrived, on any clock that does not jump.
    ///   - updatesJitter: whether the packet's timestamp feeds the jitter estimate. Pass `false`
    ///     for RFC 4733 telephone events, which repeat their event's start timestamp in every
    ///     packet (§2.3) and would make the estimate jump; they still count for loss.
    /// - Returns: how the packet was classified.
    @discardableResult
    public mutating func record(
        sequence: SequenceNumber, timestamp: RTPTimestamp, arrival: MediaTime, updatesJitter: Bool = true
    ) -> ReceptionOutcome {
        let outcome = updateSequence(sequence.rawValue)
        switch outcome {
        case .probation, .badSequence:
            return outcome
        case .inOrder, .reordered, .restarted, .duplicate:
            received += 1
        }
        let extended = cycles + Int64(maxSequence) + Int64(SequenceNumber(maxSequence).distance(to: sequence))
        if window.markArrival(of: extended) {
            duplicates += 1
            return .duplicate
        }
        if updatesJitter {
            updateJitter(timestamp: timestamp, arrival: arrival)
        }
        if outcome == .reordered { reordered += 1 }
        return outcome
    }

    /// Counts one received packet: ``record(sequence:timestamp:arrival:updatesJitter:)`` with its
    /// header fields, and its payload octets when it is media (`updatesJitter`) and not a duplicate.
    @discardableResult
    public mutating func record(_ packet: RTPPacket, arrival: MediaTime, updatesJitter: Bool = true) -> ReceptionOutcome {
        let outcome = record(sequence: packet.sequenceNumber, timestamp: packet.timestamp, arrival: arrival, updatesJitter: updatesJitter)
        if updatesJitter, outcome == .inOrder || outcome == .reordered || outcome == .restarted {
            mediaPayloadOctets += Int64(packet.payload.count)
            mediaPayloadPackets += 1
        }
        return outcome
    }

    /// Notes the arrival of a sender report from the source, for the LSR and DLSR fields of the
    /// next report blocks.
    public mutating func recordSenderReport(ntpTimestamp: NTPTimestamp, arrival: MediaTime) {
        lastSenderReport = (ntpTimestamp.middle32, arrival)
    }

    /// The report block about this source for an RTCP packet sent at `now` (RFC 3550 A.3),
    /// starting a new interval for the fraction lost.
    public mutating func makeReportBlock(ssrc: UInt32, now: MediaTime) -> RTCPReportBlock {
        let expected = self.expected
        let expectedInterval = expected - expectedPrior
        let receivedInterval = received - receivedPrior
        expectedPrior = expected
        receivedPrior = received
        let lostInterval = expectedInterval - receivedInterval
        let fraction = expectedInterval == 0 || lostInterval <= 0 ? 0 : (lostInterval << 8) / expectedInterval
        let lost = min(max(cumulativeLost, -0x80_0000), 0x7F_FFFF)
        return RTCPReportBlock(
            ssrc: ssrc,
            fractionLost: UInt8(clamping: fraction),
            cumulativeLost: Int32(lost),
            extendedHighestSequence: UInt32(truncatingIfNeeded: extendedHighestSequence),
            jitter: jitter < Double(UInt32.max) ? UInt32(jitter) : .max,
            lastSenderReport: lastSenderReport?.middle32 ?? 0,
            delaySinceLastSenderReport: lastSenderReport.map { CompactNTP.units(of: now - $0.arrival) } ?? 0
        )
    }

    /// RFC 3550 A.1 `update_seq`, with duplicates left for the window to tell apart.
    private mutating func updateSequence(_ sequence: UInt16) -> ReceptionOutcome {
        guard started else {
            started = true
            restart(at: sequence)
            maxSequence = sequence &- 1
            probation = minimumSequential
            return updateSequence(sequence)
        }
        let delta = sequence &- maxSequence
        if probation > 0 {
            if sequence == maxSequence &+ 1 {
                probation -= 1
                maxSequence = sequence
                if probation == 0 {
                    restart(at: sequence)
                    return .inOrder
                }
            } else {
                probation = minimumSequential - 1
                maxSequence = sequence
            }
            return .probation
        }
        if delta < Self.maxDropout {
            if sequence < maxSequence { cycles += 1 << 16 }
            maxSequence = sequence
            return .inOrder
        }
        if delta <= UInt16.max - Self.maxMisorder + 1 {
            if sequence == badSequence {
                restart(at: sequence)
                return .restarted
            }
            badSequence = sequence &+ 1
            return .badSequence
        }
        return .reordered
    }

    /// RFC 3550 A.1 `init_seq`: counting starts again from `sequence`.
    private mutating func restart(at sequence: UInt16) {
        baseSequence = sequence
        maxSequence = sequence
        badSequence = nil
        cycles = 0
        received = 0
        expectedPrior = 0
        receivedPrior = 0
        window.reset()
        previous = nil
    }

    /// RFC 3550 A.8: J += (|D| − J) / 16, D the difference in transit times, in timestamp units.
    private mutating func updateJitter(timestamp: RTPTimestamp, arrival: MediaTime) {
        defer { previous = (timestamp, arrival) }
        guard let previous else { return }
        let arrivalUnits = (arrival - previous.arrival).seconds * Double(clockRate)
        let timestampUnits = Double(previous.timestamp.distance(to: timestamp))
        let difference = abs(arrivalUnits - timestampUnits)
        jitter += (difference - jitter) / 16
    }
}
