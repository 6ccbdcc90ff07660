public import RTP

/// The RFC 3550 reception counters of the received stream at one moment: what the monitor
/// needs from RTP's `ReceptionStatistics`.
///
/// The counters are cumulative. The monitor takes differences between successive snapshots,
/// and notices a restart of the statistics (a new source, or a sequence jump that RFC 3550 A.1
/// takes for a restart) when a counter goes backwards.
public struct ReceptionCounters: Sendable, Hashable {
    /// Packets expected: from the first valid sequence number to the highest received.
    public var expectedPackets: Int64
    /// Packets received, duplicates included (RFC 3550's `received`).
    public var receivedPackets: Int64
    /// Duplicated packets among ``receivedPackets``.
    public var duplicatePackets: Int64
    /// The RFC 3550 A.8 interarrival jitter, in milliseconds.
    public var jitterMilliseconds: Double
    /// Payload octets of the media packets received (duplicates and telephone events
    /// excluded): with ``mediaPayloadPackets``, the stream's bitrate, which rates Opus.
    public var mediaPayloadOctets: Int64
    /// The media packets ``mediaPayloadOctets`` counts.
    public var mediaPayloadPackets: Int64

    /// Counters with the given values (no payload counted unless given).
    public init(
        expectedPackets: Int64, receivedPackets: Int64, duplicatePackets: Int64, jitterMilliseconds: Double,
        mediaPayloadOctets: Int64 = 0, mediaPayloadPackets: Int64 = 0
    ) {
        self.expectedPackets = expectedPackets
        self.receivedPackets = receivedPackets
        self.duplicatePackets = duplicatePackets
        self.jitterMilliseconds = jitterMilliseconds
        self.mediaPayloadOctets = mediaPayloadOctets
        self.mediaPayloadPackets = mediaPayloadPackets
    }

    /// The counters of `statistics` as they stand.
    public init(_ statistics: ReceptionStatistics) {
        self.init(
            expectedPackets: statistics.expected, receivedPackets: statistics.received,
            duplicatePackets: statistics.duplicates, jitterMilliseconds: statistics.jitterMilliseconds,
            mediaPayloadOctets: statistics.mediaPayloadOctets, mediaPayloadPackets: statistics.mediaPayloadPackets)
    }

    /// No packet yet.
    public static let zero = ReceptionCounters(
        expectedPackets: 0, receivedPackets: 0, duplicatePackets: 0, jitterMilliseconds: 0)

    /// Expected packets that never arrived: expected minus distinct packets received, never
    /// negative (duplicates do not hide losses here, unlike RFC 3550's cumulative lost).
    public var lostPackets: Int64 {
        max(0, expectedPackets.saturatingSubtracting(receivedPackets.saturatingSubtracting(duplicatePackets)))
    }
}

/// What the playout (the jitter buffer) reports, in cumulative counters and current delays.
///
/// The session fills it from its jitter buffer's statistics
/// (`init(_:)`, from `Jitter`'s `JitterBufferStatistics`); another playout can fill it field
/// by field.
public struct PlayoutFigures: Sendable, Hashable {
    /// The delay the buffer holds packets for now, in milliseconds.
    public var currentDelayMilliseconds: Double
    /// The delay the buffer steers towards, in milliseconds.
    public var targetDelayMilliseconds: Double
    /// Packets that arrived after their playout time (counted as lost by the listener).
    public var latePackets: Int
    /// Packets that arrived but were thrown away for another reason (buffer full, overtaken),
    /// duplicates excluded.
    public var discardedPackets: Int
    /// Samples made up by concealment.
    public var concealedSamples: Int
    /// Samples played in total, concealment included.
    public var playedSamples: Int
    /// Concealment events long enough to be heard as an interruption.
    public var interruptions: Int

    /// Figures with the given values.
    public init(
        currentDelayMilliseconds: Double, targetDelayMilliseconds: Double, latePackets: Int,
        discardedPackets: Int, concealedSamples: Int, playedSamples: Int, interruptions: Int
    ) {
        self.currentDelayMilliseconds = currentDelayMilliseconds
        self.targetDelayMilliseconds = targetDelayMilliseconds
        self.latePackets = latePackets
        self.discardedPackets = discardedPackets
        self.concealedSamples = concealedSamples
        self.playedSamples = playedSamples
        self.interruptions = interruptions
    }

    /// No playout yet: every figure zero.
    public static let zero = PlayoutFigures(
        currentDelayMilliseconds: 0, targetDelayMilliseconds: 0, latePackets: 0, discardedPackets: 0,
        concealedSamples: 0, playedSamples: 0, interruptions: 0)

    /// Packets that arrived but were not played: late plus discarded.
    var unplayedPackets: Int64 { Int64(count: latePackets).saturatingAdding(Int64(count: discardedPackets)) }
}

/// The codec of the monitored stream: its name, clock, packet size, delay and E-model values.
public struct MonitoredCodec: Sendable, Hashable {
    /// The SDP encoding name, such as `PCMU` or `opus`.
    public var encodingName: String
    /// The RTP clock rate in Hz (for converting the far end's jitter to milliseconds).
    public var clockRate: Int
    /// The audio carried by one packet, in milliseconds (the packetisation delay).
    public var packetDurationMilliseconds: Double
    /// The codec's algorithmic delay (look-ahead and framing beyond the packet), in milliseconds.
    public var algorithmicDelayMilliseconds: Double
    /// Ie and Bpl for the E-model. Without an Ie the reports carry no R or MOS, except for Opus:
    /// the monitor then rates it with the wideband values for the received bitrate
    /// (``CodecImpairmentTable/ratingEntry(forEncodingName:bitsPerSecond:concealment:)``).
    public var impairment: CodecImpairment?

    /// A codec with explicit E-model values.
    public init(
        encodingName: String, clockRate: Int, packetDurationMilliseconds: Double,
        algorithmicDelayMilliseconds: Double, impairment: CodecImpairment?
    ) {
        self.encodingName = encodingName
        self.clockRate = max(clockRate, 1)
        self.packetDurationMilliseconds = packetDurationMilliseconds.finiteOrZero
        self.algorithmicDelayMilliseconds = algorithmicDelayMilliseconds.finiteOrZero
        self.impairment = impairment
    }

    /// A codec whose E-model values are looked up by encoding name in `table`
    /// (see ``CodecImpairmentTable/entry(forEncodingName:concealment:)``).
    ///
    /// - Parameters:
    ///   - encodingName: the name as SDP spells it (`PCMU`, `opus`).
    ///   - clockRate: the RTP clock rate in hertz.
    ///   - packetDurationMilliseconds: the audio carried by one packet.
    ///   - algorithmicDelayMilliseconds: the codec's own delay (lookahead, framing).
    ///   - concealment: whether the receiver conceals lost packets.
    ///   - table: where the E-model values are looked up.
    public init(
        encodingName: String, clockRate: Int, packetDurationMilliseconds: Double,
        algorithmicDelayMilliseconds: Double = 0, concealment: Bool = true,
        table: CodecImpairmentTable = .standard
    ) {
        self.init(
            encodingName: encodingName, clockRate: clockRate, packetDurationMilliseconds: packetDurationMilliseconds,
            algorithmicDelayMilliseconds: algorithmicDelayMilliseconds,
            impairment: table.entry(forEncodingName: encodingName, concealment: concealment))
    }
}
