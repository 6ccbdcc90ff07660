import QualityMetrics
import PlayoutLab
/// One RTP stream's figures exactly as Wireshark 4.0 computes them for
/// `tshark -z rtp,streams` and the RTP Stream Analysis window: packets, lost (and %), min/mean/
/// max delta, min/mean/max jitter, and the "Problems" mark.
///
/// Feed it the stream's packets (one 5-tuple and SSRC) in capture order with
/// ``record(arrivalNanoseconds:sequenceNumber:timestamp:payloadType:marker:clock:)``. It keeps a
/// few scalars and allocates nothing.
///
/// These are Wireshark's semantics, kept even where they differ from RFC 3550 (the RFC figures
/// live elsewhere in this module); as Wireshark 4.0's `rtppacket_analyse`
/// (`ui/tap-rtp-analysis.c`) and `rtpstream_info_calculate` (`ui/tap-rtp-common.c`) compute them:
/// - **Delta** is the arrival time minus that of the last packet whose timestamp was in
///   sequence. Only *regular* packets count in min/mean/max: not the first, not one with the
///   marker bit, not comfort noise (payload type 13 or 19) nor the packet after it, not one with
///   a wrong timestamp.
/// - **Jitter** is the RFC 3550 estimator in milliseconds, `J += (|D| − J) / 16`, where
///   `D` = arrival − (last in-sequence arrival + timestamp advance since the last packet that had
///   a clock). It is updated by every packet whose timestamp is in sequence and whose payload
///   type has a clock (``WiresharkPayloadClock``), markers included; min/mean/max take it from
///   regular packets with a clock. Without any clock (unknown dynamic type, telephone-event)
///   tshark prints −1 / 0 / 0. Timestamps are converted with `clock rate / 1000` in integer
///   arithmetic, as Wireshark does (44.1 kHz counts as 44 per millisecond).
/// - **Means** are running means weighted by the number of packets seen before, regular or not:
///   `mean = (mean × (n − 1) + x) / n` for the n+1-th packet. The mean jitter is the mean of the
///   estimate, not its final value.
/// - **Lost** is the last packet's sequence number (plus 65 536 per counted wrap) minus the
///   first's plus one, minus the packets received: duplicates make it smaller, even negative,
///   and a late last packet shifts it.
/// - **Problems** is set when any packet had a wrong sequence number (a gap, a late packet or
///   a duplicate) or a wrong timestamp (before the stream's first, by the half-range rule).
public struct WiresharkRTPStreamStatistics: Sendable, Hashable {
    /// Packets recorded (tshark's "Pkts"), duplicates included; wraps at 2³² like Wireshark's
    /// `guint32`.
    public private(set) var packets: UInt32 = 0
    /// Packets whose sequence number was not the expected one (Wireshark's `sequence` counter).
    public private(set) var sequenceErrors: UInt32 = 0
    /// tshark's "Problems?" mark: a packet had a wrong sequence number or timestamp.
    public private(set) var hasProblems = false
    /// Min/mean/max delta between consecutive packets, in milliseconds.
    public private(set) var delta = WiresharkMillisecondFigures.none
    /// Min/mean/max of the jitter estimate, in milliseconds (−1 / 0 / 0 without a clock).
    public private(set) var jitter = WiresharkMillisecondFigures.none
    /// The last non-zero clock rate the analysis used, in hertz (0 if none).
    public private(set) var clockRate: UInt32 = 0

    private var hasFirstPacket = false
    private var firstArrivalNanoseconds: Int64 = 0
    private var firstTimestamp: UInt32 = 0
    private var sequence = WiresharkSequenceTracker()
    private var lastPayloadType: UInt8 = 0
    private var regularPayloadType: UInt8 = 0
    /// Arrival of the last packet whose timestamp was in sequence, in ms since the first packet.
    private var lastInSequenceArrival: Double = 0
    /// Timestamp advance (in ms) from the first packet to the last one that had a clock.
    private var lastNominalTime: Double = 0
    private var lastDelta: Double = 0
    private var currentJitter: Double = 0

    /// An empty stream.
    public init() {}

    /// The packets tshark expects from the first and last sequence numbers and the wraps it
    /// counted, wrapped to 32 bits as Wireshark's `guint32` is.
    public var expectedPackets: UInt32 {
        sequence.expectedPackets
    }

    /// tshark's "Lost": ``expectedPackets`` minus ``packets``, negative with duplicates.
    public var lostPackets: Int32 {
        Int32(truncatingIfNeeded: expectedPackets &- packets)
    }

    /// tshark's lost percentage, `lost × 100 / expected` (0 when nothing is expected), with
    /// Wireshark's 32-bit product.
    public var lostPercent: Double {
        guard expectedPackets != 0 else { return 0 }
        return Double(lostPackets &* 100) / Double(expectedPackets)
    }

    /// Records the stream's next packet in capture order and returns what the analysis made
    /// of it.
    ///
    /// - Parameters:
    ///   - arrivalNanoseconds: the capture timestamp, in nanoseconds on any fixed epoch.
    ///   - sequenceNumber: the RTP sequence number.
    ///   - timestamp: the RTP timestamp.
    ///   - payloadType: the 7-bit payload type.
    ///   - marker: the RTP marker bit.
    ///   - clock: the clock Wireshark would use for this payload type
    ///     (``WiresharkPayloadClock/forPayloadType(_:encodingName:sdpClockRate:)``).
    @discardableResult
    public mutating func record(
        arrivalNanoseconds: Int64, sequenceNumber: UInt16, timestamp: UInt32, payloadType: UInt8,
        marker: Bool, clock: WiresharkPayloadClock
    ) -> WiresharkPacketAnalysis {
        guard hasFirstPacket else {
            recordFirst(
                arrivalNanoseconds: arrivalNanoseconds, sequenceNumber: sequenceNumber,
                timestamp: timestamp, payloadType: payloadType)
            return WiresharkPacketAnalysis(
                flags: marker ? [.first, .marker] : .first, deltaMilliseconds: 0,
                jitterMilliseconds: 0, differenceMilliseconds: 0)
        }
        let now = millisecondsSinceFirst(arrivalNanoseconds)
        let timestampInSequence = isInSequence(timestamp: timestamp)
        var flags: WiresharkPacketFlags = timestampInSequence ? [] : .wrongTimestamp
        if sequence.record(sequenceNumber, timestampInSequence: timestampInSequence) {
            flags.insert(.wrongSequence)
            sequenceErrors &+= 1
        }
        flags.formUnion(payloadTypeFlags(payloadType))
        if case .telephoneEvent = clock {
            flags.insert(.telephoneEvent)
        }
        let hertz = clock.hertz
        var difference = 0.0
        if timestampInSequence {
            lastDelta = now - lastInSequenceArrival
            if hertz != 0 {
                clockRate = hertz
                difference = updateJitter(now: now, timestamp: timestamp, hertz: hertz)
            }
        }
        if marker { flags.insert(.marker) }
        if flags.isDisjoint(with: [.marker, .comfortNoise, .followsComfortNoise, .wrongTimestamp]) {
            delta.include(lastDelta, position: packets)
            if hertz != 0 {
                jitter.include(currentJitter, position: packets)
            }
        }
        if timestampInSequence {
            lastInSequenceArrival = now
        }
        packets &+= 1
        if flags.contains(.wrongSequence) || flags.contains(.wrongTimestamp) {
            hasProblems = true
        }
        return WiresharkPacketAnalysis(
            flags: flags, deltaMilliseconds: lastDelta,
            jitterMilliseconds: currentJitter, differenceMilliseconds: difference)
    }

    private mutating func recordFirst(
        arrivalNanoseconds: Int64, sequenceNumber: UInt16, timestamp: UInt32, payloadType: UInt8
    ) {
        hasFirstPacket = true
        firstArrivalNanoseconds = arrivalNanoseconds
        firstTimestamp = timestamp
        sequence = WiresharkSequenceTracker(first: sequenceNumber)
        lastPayloadType = payloadType
        regularPayloadType = payloadType
        packets = 1
    }

    /// Arrival in milliseconds since the stream's first packet (Wireshark uses the time since the
    /// capture's first frame; only differences matter).
    private func millisecondsSinceFirst(_ arrivalNanoseconds: Int64) -> Double {
        let (elapsed, overflow) = arrivalNanoseconds.subtractingReportingOverflow(firstArrivalNanoseconds)
        guard !overflow else { return (Double(arrivalNanoseconds) - Double(firstArrivalNanoseconds)) / 1e6 }
        return Double(elapsed) / 1e6
    }

    /// Wireshark's test: the timestamp is at most half the 32-bit range after the stream's
    /// first, counting a wrap past 0xFFFFFFFF.
    private func isInSequence(timestamp: UInt32) -> Bool {
        if firstTimestamp <= timestamp {
            return timestamp - firstTimestamp < 0x8000_0000
        }
        return UInt64(UInt32.max - firstTimestamp) + UInt64(timestamp) < 0x8000_0000
    }

    /// Sets the comfort-noise and payload-change flags and remembers the payload types.
    private mutating func payloadTypeFlags(_ payloadType: UInt8) -> WiresharkPacketFlags {
        var flags: WiresharkPacketFlags = []
        if Self.isComfortNoise(payloadType) { flags.insert(.comfortNoise) }
        if Self.isComfortNoise(lastPayloadType) { flags.insert(.followsComfortNoise) }
        if payloadType != lastPayloadType { flags.insert(.payloadTypeChange) }
        lastPayloadType = payloadType
        if !flags.contains(.comfortNoise) {
            if payloadType != regularPayloadType { flags.insert(.regularPayloadTypeChange) }
            regularPayloadType = payloadType
        }
        return flags
    }

    /// Updates the jitter estimate with a packet that has a clock; returns |D|.
    private mutating func updateJitter(now: Double, timestamp: UInt32, hertz: UInt32) -> Double {
        // Integer division as in Wireshark; a rate below 1 kHz divides by zero (infinity), as there.
        let nominalTime = Double(timestamp &- firstTimestamp) / Double(hertz / 1000)
        let expectedArrival = lastInSequenceArrival + (nominalTime - lastNominalTime)
        let difference = abs(now - expectedArrival)
        currentJitter = (15 * currentJitter + difference) / 16
        lastNominalTime = nominalTime
        return difference
    }

    private static func isComfortNoise(_ payloadType: UInt8) -> Bool {
        payloadType == 13 || payloadType == 19
    }
}
