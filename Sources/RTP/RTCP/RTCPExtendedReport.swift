/// XR report block types (RFC 3611 §4).
public enum RTCPExtendedReportBlockType {
    /// Receiver Reference Time (§4.4).
    public static let receiverReferenceTime: UInt8 = 4
    /// DLRR, delay since last receiver reference time (§4.5).
    public static let dlrr: UInt8 = 5
    /// VoIP Metrics (§4.7).
    public static let voipMetrics: UInt8 = 7
}

/// One DLRR sub-block (RFC 3611 §4.5): the reply to a receiver's reference time.
public struct RTCPDLRRItem: Hashable, Sendable {
    /// The receiver whose reference time is echoed.
    public var ssrc: UInt32
    /// The middle 32 bits of its last Receiver Reference Time (LRR).
    public var lastReceiverReport: UInt32
    /// The time since that arrived, in units of 1/65536 s (DLRR).
    public var delaySinceLastReceiverReport: UInt32

    /// Collects the sub-block's fields.
    public init(ssrc: UInt32, lastReceiverReport: UInt32, delaySinceLastReceiverReport: UInt32) {
        self.ssrc = ssrc
        self.lastReceiverReport = lastReceiverReport
        self.delaySinceLastReceiverReport = delaySinceLastReceiverReport
    }

    /// The round trip this sub-block implies when it arrives at `arrival` (on the clock of the
    /// reference time it echoes), or `nil` when it echoes none (RFC 3611 §4.5).
    public func roundTripTime(arrival: NTPTimestamp) -> MediaTime? {
        CompactNTP.roundTripTime(
            arrival: arrival, lastReport: lastReceiverReport, delaySinceLastReport: delaySinceLastReceiverReport)
    }
}

/// The VoIP Metrics report block (RFC 3611 §4.7), every field as on the wire.
public struct RTCPVoIPMetrics: Hashable, Sendable {
    /// The source reported on.
    public var ssrc: UInt32
    /// Fraction of packets lost in the network, in 1/256.
    public var lossRate: UInt8
    /// Fraction of packets discarded by the jitter buffer, in 1/256.
    public var discardRate: UInt8
    /// Fraction of packets lost or discarded within bursts, in 1/256.
    public var burstDensity: UInt8
    /// Fraction of packets lost or discarded within gaps, in 1/256.
    public var gapDensity: UInt8
    /// Mean duration of bursts, in milliseconds.
    public var burstDuration: UInt16
    /// Mean duration of gaps, in milliseconds.
    public var gapDuration: UInt16
    /// Most recent round-trip delay, in milliseconds.
    public var roundTripDelay: UInt16
    /// Most recent end-system delay, in milliseconds.
    public var endSystemDelay: UInt16
    /// Signal level in dBm0 (127 = unavailable).
    public var signalLevel: Int8
    /// Noise level in dBm0 (127 = unavailable).
    public var noiseLevel: Int8
    /// Residual echo return loss, in dB (127 = unavailable).
    public var residualEchoReturnLoss: UInt8
    /// Gap threshold (Gmin), in packets; 16 recommended.
    public var gapThreshold: UInt8
    /// R factor of the call (127 = unavailable).
    public var rFactor: UInt8
    /// External R factor (127 = unavailable).
    public var externalRFactor: UInt8
    /// Listening-quality MOS × 10 (127 = unavailable).
    public var mosListeningQuality: UInt8
    /// Conversational-quality MOS × 10 (127 = unavailable).
    public var mosConversationalQuality: UInt8
    /// Receiver configuration byte: PLC (2 bits), jitter-buffer adaptive (2), rate (4).
    public var receiverConfiguration: UInt8
    /// Nominal jitter-buffer delay, in milliseconds.
    public var jitterBufferNominal: UInt16
    /// Maximum jitter-buffer delay, in milliseconds.
    public var jitterBufferMaximum: UInt16
    /// Absolute maximum jitter-buffer delay, in milliseconds.
    public var jitterBufferAbsoluteMaximum: UInt16

    /// The block's length in 32-bit words after its 4-byte header.
    static let lengthWords = 8

    /// Collects the block's fields; the ones a receiver may not know default to "unavailable".
    public init(
        ssrc: UInt32, lossRate: UInt8 = 0, discardRate: UInt8 = 0, burstDensity: UInt8 = 0,
        gapDensity: UInt8 = 0, burstDuration: UInt16 = 0, gapDuration: UInt16 = 0,
        roundTripDelay: UInt16 = 0, endSystemDelay: UInt16 = 0, signalLevel: Int8 = 127,
        noiseLevel: Int8 = 127, residualEchoReturnLoss: UInt8 = 127, gapThreshold: UInt8 = 16,
        rFactor: UInt8 = 127, externalRFactor: UInt8 = 127, mosListeningQuality: UInt8 = 127,
        mosConversationalQuality: UInt8 = 127, receiverConfiguration: UInt8 = 0,
        jitterBufferNominal: UInt16 = 0, jitterBufferMaximum: UInt16 = 0, jitterBufferAbsoluteMaximum: UInt16 = 0
    ) {
        self.ssrc = ssrc
        self.lossRate = lossRate
        self.discardRate = discardRate
        self.burstDensity = burstDensity
        self.gapDensity = gapDensity
        self.burstDuration = burstDuration
        self.gapDuration = gapDuration
        self.roundTripDelay = roundTripDelay
        self.endSystemDelay = endSystemDelay
        self.signalLevel = signalLevel
        self.noiseLevel = noiseLevel
        self.residualEchoReturnLoss = residualEchoReturnLoss
        self.gapThreshold = gapThreshold
        self.rFactor = rFactor
        self.externalRFactor = externalRFactor
        self.mosListeningQuality = mosListeningQuality
        self.mosConversationalQuality = mosConversationalQuality
        self.receiverConfiguration = receiverConfiguration
        self.jitterBufferNominal = jitterBufferNominal
        self.jitterBufferMaximum = jitterBufferMaximum
        self.jitterBufferAbsoluteMaximum = jitterBufferAbsoluteMaximum
    }

    /// Reads the 32 content bytes at `offset` (after the block header).
    init(validated bytes: UnsafeRawBufferPointer, at offset: Int) {
        self.init(
            ssrc: bytes.uint32(at: offset),
            lossRate: bytes.uint8(at: offset + 4), discardRate: bytes.uint8(at: offset + 5),
            burstDensity: bytes.uint8(at: offset + 6), gapDensity: bytes.uint8(at: offset + 7),
            burstDuration: bytes.uint16(at: offset + 8), gapDuration: bytes.uint16(at: offset + 10),
            roundTripDelay: bytes.uint16(at: offset + 12), endSystemDelay: bytes.uint16(at: offset + 14),
            signalLevel: Int8(bitPattern: bytes.uint8(at: offset + 16)),
            noiseLevel: Int8(bitPattern: bytes.uint8(at: offset + 17)),
            residualEchoReturnLoss: bytes.uint8(at: offset + 18), gapThreshold: bytes.uint8(at: offset + 19),
            rFactor: bytes.uint8(at: offset + 20), externalRFactor: bytes.uint8(at: offset + 21),
            mosListeningQuality: bytes.uint8(at: offset + 22), mosConversationalQuality: bytes.uint8(at: offset + 23),
            receiverConfiguration: bytes.uint8(at: offset + 24),
            jitterBufferNominal: bytes.uint16(at: offset + 26),
            jitterBufferMaximum: bytes.uint16(at: offset + 28),
            jitterBufferAbsoluteMaximum: bytes.uint16(at: offset + 30)
        )
    }

    /// Writes the 32 content bytes.
    func write(to writer: inout ByteWriter) throws(RTPError) {
        try writer.write(ssrc)
        try writer.write(lossRate)
        try writer.write(discardRate)
        try writer.write(burstDensity)
        try writer.write(gapDensity)
        try writer.write(burstDuration)
        try writer.write(gapDuration)
        try writer.write(roundTripDelay)
        try writer.write(endSystemDelay)
        try writer.write(UInt8(bitPattern: signalLevel))
        try writer.write(UInt8(bitPattern: noiseLevel))
        try writer.write(residualEchoReturnLoss)
        try writer.write(gapThreshold)
        try writer.write(rFactor)
        try writer.write(externalRFactor)
        try writer.write(mosListeningQuality)
        try writer.write(mosConversationalQuality)
        try writer.write(receiverConfiguration)
        try writer.write(UInt8(0))  // reserved
        try writer.write(jitterBufferNominal)
        try writer.write(jitterBufferMaximum)
        try writer.write(jitterBufferAbsoluteMaximum)
    }
}

/// An extended report (RFC 3611), read in place.
public struct RTCPExtendedReport {
    private let packet: RTCPPacketBytes

    init(_ packet: RTCPPacketBytes) throws(RTPError) {
        try packet.require(4, at: 4)
        var offset = 8
        while offset < packet.bytes.count {
            try packet.require(4, at: offset)
            let words = Int(packet.bytes.uint16(at: offset + 2))
            try packet.require(4 + words * 4, at: offset)
            let expected: Bool
            switch packet.bytes.uint8(at: offset) {
            case RTCPExtendedReportBlockType.receiverReferenceTime: expected = words == 2
            case RTCPExtendedReportBlockType.dlrr: expected = words % 3 == 0
            case RTCPExtendedReportBlockType.voipMetrics: expected = words == RTCPVoIPMetrics.lengthWords
            default: expected = true
            }
            guard expected else { throw RTPError(.invalidLength(words), at: packet.base + offset + 2) }
            offset += 4 + words * 4
        }
        self.packet = packet
    }

    /// The reporter's SSRC.
    public var ssrc: UInt32 { packet.bytes.uint32(at: 4) }
    /// The report blocks, in order.
    public var blocks: Blocks { Blocks(bytes: packet.bytes) }

    /// One XR report block, decoded where its type is known.
    public enum Block {
        /// Receiver Reference Time: the receiver's wall clock when it sent the report.
        case receiverReferenceTime(NTPTimestamp)
        /// DLRR: replies to receiver reference times.
        case dlrr(DLRRItems)
        /// VoIP Metrics.
        case voipMetrics(RTCPVoIPMetrics)
        /// Any other block type: the type, its type-specific byte and its contents, in place.
        case other(blockType: UInt8, typeSpecific: UInt8, contents: UnsafeRawBufferPointer)
    }

    /// The sub-blocks of a DLRR block, read in place.
    public struct DLRRItems: RandomAccessCollection {
        let bytes: UnsafeRawBufferPointer

        /// The first index, 0.
        public var startIndex: Int { 0 }
        /// The number of sub-blocks.
        public var endIndex: Int { bytes.count / 12 }
        /// The sub-block at `position`.
        public subscript(position: Int) -> RTCPDLRRItem {
            precondition(indices.contains(position), "DLRR index out of range")
            let offset = position * 12
            return RTCPDLRRItem(
                ssrc: bytes.uint32(at: offset), lastReceiverReport: bytes.uint32(at: offset + 4),
                delaySinceLastReceiverReport: bytes.uint32(at: offset + 8))
        }
    }

    /// The blocks of an XR packet.
    public struct Blocks: Sequence {
        let bytes: UnsafeRawBufferPointer

        /// Iterates the blocks.
        public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

        /// Walks the blocks of a validated packet.
        public struct Iterator: IteratorProtocol {
            let bytes: UnsafeRawBufferPointer
            var offset = 8

            /// The next block, or `nil` after the last.
            public mutating func next() -> Block? {
                guard offset < bytes.count else { return nil }
                let type = bytes.uint8(at: offset)
                let contentStart = offset + 4
                offset = contentStart + Int(bytes.uint16(at: offset + 2)) * 4
                switch type {
                case RTCPExtendedReportBlockType.receiverReferenceTime:
                    return .receiverReferenceTime(
                        NTPTimestamp(
                            seconds: bytes.uint32(at: contentStart), fraction: bytes.uint32(at: contentStart + 4)))
                case RTCPExtendedReportBlockType.dlrr:
                    return .dlrr(DLRRItems(bytes: bytes.slice(contentStart, offset)))
                case RTCPExtendedReportBlockType.voipMetrics:
                    return .voipMetrics(RTCPVoIPMetrics(validated: bytes, at: contentStart))
                default:
                    return .other(
                        blockType: type, typeSpecific: bytes.uint8(at: contentStart - 3),
                        contents: bytes.slice(contentStart, offset))
                }
            }
        }
    }
}
