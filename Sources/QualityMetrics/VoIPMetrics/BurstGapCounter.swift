/// What became of one expected RTP packet, as the burst/gap model of RFC 3611 sees it.
public enum PacketFate: Sendable, Hashable, Codable {
    /// Arrived in time to be played.
    case received
    /// Never arrived (after any error protection such as FEC).
    case lost
    /// Arrived but was thrown away, too late or too early for the jitter buffer (duplicates
    /// excluded).
    case discarded
}

/// The burst/gap loss model of the RFC 3611 VoIP Metrics block (§4.7.2), computed with the
/// event-driven state machine of RFC 3611 Appendix A.2 (reproduced there from ETSI TS 101 329-5)
/// exactly as written, one packet at a time and without storing the sequence.
///
/// A *burst* is a period in which lost or discarded packets are separated by fewer than Gmin
/// received packets; a *gap* is a period between bursts, in which a lost packet is preceded by at
/// least Gmin received packets. The four states of the Appendix are: 1, received during a gap;
/// 2, received during a burst; 3, lost during a burst; 4, isolated loss during a gap. The
/// counters `cXY` count transitions from state X to state Y; c31 and c32 are inferred at report
/// time (c31 = c13, c32 = c23), accurate to one.
///
/// Lost and discarded packets are treated alike, as the RFC does ("have equal effect on the
/// quality of the voice stream"); the state starts with no packets received and no losses,
/// as the Appendix's counters do.
public struct BurstGapCounter: Sendable, Hashable, Codable {
    /// Gmin, the smallest run of received packets that ends a burst; RFC 3611 recommends 16.
    public let minimumGap: UInt8
    /// Packets recorded as lost (`loss_count` in the Appendix).
    public private(set) var lostPackets: UInt64 = 0
    /// Packets recorded as discarded (`discard_count`).
    public private(set) var discardedPackets: UInt64 = 0
    /// Packets recorded as received.
    public private(set) var receivedPackets: UInt64 = 0
    /// `pkt`: received packets since the last lost or discarded packet.
    public private(set) var receivedSinceLoss: UInt64 = 0
    /// `lost`: lost or discarded packets in the current burst.
    public private(set) var lossesInBurst: UInt64 = 0
    /// c11: received in a gap → received in a gap.
    public private(set) var c11: UInt64 = 0
    /// c13: received in a gap → lost in a burst.
    public private(set) var c13: UInt64 = 0
    /// c14: received in a gap → isolated loss in a gap.
    public private(set) var c14: UInt64 = 0
    /// c22: received in a burst → received in a burst.
    public private(set) var c22: UInt64 = 0
    /// c23: received in a burst → lost in a burst.
    public private(set) var c23: UInt64 = 0
    /// c33: lost in a burst → lost in a burst.
    public private(set) var c33: UInt64 = 0

    /// An empty counter with the given Gmin (16 unless you need another).
    public init(minimumGap: UInt8 = 16) {
        self.minimumGap = minimumGap
    }

    /// Feeds the next expected packet, in sequence-number order (RFC 3611 Appendix A.2).
    public mutating func record(_ fate: PacketFate) {
        switch fate {
        case .received:
            receivedPackets &+= 1
            receivedSinceLoss &+= 1
            return
        case .lost:
            lostPackets &+= 1
        case .discarded:
            discardedPackets &+= 1
        }
        if receivedSinceLoss >= UInt64(minimumGap) {
            if lossesInBurst == 1 {
                c14 &+= 1
            } else {
                c13 &+= 1
            }
            lossesInBurst = 1
            c11 &+= receivedSinceLoss
        } else {
            lossesInBurst &+= 1
            if receivedSinceLoss == 0 {
                c33 &+= 1
            } else {
                c23 &+= 1
                c22 &+= receivedSinceLoss - 1
            }
        }
        receivedSinceLoss = 0
    }

    /// Every packet recorded: received, lost and discarded.
    public var expectedPackets: UInt64 { receivedPackets &+ lostPackets &+ discardedPackets }

    /// Lost packets over expected packets, 0 when nothing was expected (RFC 3611 §4.7.1).
    public var lossFraction: Double { fraction(lostPackets) }

    /// Discarded packets over expected packets, 0 when nothing was expected (§4.7.1).
    public var discardFraction: Double { fraction(discardedPackets) }

    /// Ppl for the E-model: lost and discarded packets, in percent of those expected.
    public var effectiveLossPercent: Double { fraction(lostPackets &+ discardedPackets) * 100 }

    /// The burst and gap densities and durations at this point of the stream, by the report
    /// calculation of RFC 3611 Appendix A.2.
    ///
    /// The Appendix divides by c13 (the number of bursts) and by sums of counters that are zero
    /// before the first burst; this implementation then reports what those periods are: no
    /// burst (density and duration 0) and, for the durations, the whole stream as one gap.
    ///
    /// - Parameter m: the audio carried by one packet (frame
    ///   duration times frames per packet).
    public func metrics(packetDurationMilliseconds m: Double) -> BurstGapMetrics {
        let c31 = Double(c13)
        let c32 = Double(c23)
        let (c11, c13, c14, c22, c23, c33) = (
            Double(c11), Double(c13), Double(c14), Double(c22), Double(c23), Double(c33)
        )
        let total = c11 + c14 + c13 + c22 + c23 + c31 + c32 + c33

        var burstDensity = 0.0
        let leavingBurstLoss = c31 + c32 + c33
        if leavingBurstLoss > 0 {
            let p32 = c32 / leavingBurstLoss
            let p23 = c22 + c23 < 1 ? 1 : 1 - c22 / (c22 + c23)
            burstDensity = p23 + p32 > 0 ? p23 / (p23 + p32) : 0
        }
        let gapDensity = c11 + c14 > 0 ? c14 / (c11 + c14) : 0

        let gapDuration: Double
        let burstDuration: Double
        if c13 > 0 {
            gapDuration = (c11 + c14 + c13) * m / c13
            burstDuration = total * m / c13 - gapDuration
        } else {
            gapDuration = Double(expectedPackets) * m
            burstDuration = 0
        }
        return BurstGapMetrics(
            burstDensity: burstDensity, gapDensity: gapDensity,
            burstDurationMilliseconds: burstDuration, gapDurationMilliseconds: gapDuration)
    }

    private func fraction(_ count: UInt64) -> Double {
        expectedPackets == 0 ? 0 : Double(count) / Double(expectedPackets)
    }
}

/// The burst/gap metrics of RFC 3611 §4.7.2 in natural units (fractions 0...1, milliseconds);
/// RTP's `RTCPVoIPMetrics` holds them in the block's scaled form.
public struct BurstGapMetrics: Sendable, Hashable, Codable {
    /// The fraction of packets within bursts that were lost or discarded.
    public var burstDensity: Double
    /// The fraction of packets within gaps that were lost or discarded.
    public var gapDensity: Double
    /// The mean duration of a burst, in milliseconds.
    public var burstDurationMilliseconds: Double
    /// The mean duration of a gap, in milliseconds.
    public var gapDurationMilliseconds: Double

    /// Metrics with the given values.
    public init(
        burstDensity: Double, gapDensity: Double, burstDurationMilliseconds: Double,
        gapDurationMilliseconds: Double
    ) {
        self.burstDensity = burstDensity
        self.gapDensity = gapDensity
        self.burstDurationMilliseconds = burstDurationMilliseconds
        self.gapDurationMilliseconds = gapDurationMilliseconds
    }
}
