/// The cumulative counts behind the reports, taken at each report so that an interval or a
/// window of intervals is the difference of two snapshots.
struct MonitorTotals: Sendable {
    /// Packets expected (reception statistics, across restarts).
    var expectedPackets: Int64 = 0
    /// Expected packets that never arrived (may shrink when a reordered packet fills a gap).
    var lostPackets: Int64 = 0
    /// Packets the jitter buffer did not play (late or discarded).
    var unplayedPackets: Int64 = 0
    /// Samples made up by concealment.
    var concealedSamples: Int64 = 0
    /// Samples played.
    var playedSamples: Int64 = 0
    /// Audible interruptions.
    var interruptions: Int64 = 0
    /// The packet fates as a loss sequence, for BurstR.
    var transitions = BurstRatio.TransitionCounts()

    /// Adds `expected` and `lost` packets of the reception statistics.
    mutating func addReception(_ counters: ReceptionCounters) {
        expectedPackets = expectedPackets.saturatingAdding(max(counters.expectedPackets, 0))
        lostPackets = lostPackets.saturatingAdding(counters.lostPackets)
    }

    /// Adds the counts of the playout.
    mutating func addPlayout(_ figures: PlayoutFigures) {
        unplayedPackets = unplayedPackets.saturatingAdding(figures.unplayedPackets)
        concealedSamples = concealedSamples.saturatingAdding(Int64(count: figures.concealedSamples))
        playedSamples = playedSamples.saturatingAdding(Int64(count: figures.playedSamples))
        interruptions = interruptions.saturatingAdding(Int64(count: figures.interruptions))
    }

    /// The loss between `earlier` and these totals. A count that went down (a reordered
    /// packet filling a gap counted before) gives 0, never a negative loss.
    func loss(since earlier: MonitorTotals) -> LossFigures {
        LossFigures(
            expectedPackets: expectedPackets.saturatingSubtracting(earlier.expectedPackets),
            lostPackets: lostPackets.saturatingSubtracting(earlier.lostPackets),
            unplayedPackets: unplayedPackets.saturatingSubtracting(earlier.unplayedPackets))
    }

    /// The share of played samples that were concealed since `earlier`, in percent (0 when
    /// nothing was played).
    func concealmentPercent(since earlier: MonitorTotals) -> Double {
        let played = playedSamples.saturatingSubtracting(earlier.playedSamples)
        let concealed = concealedSamples.saturatingSubtracting(earlier.concealedSamples)
        guard played > 0, concealed > 0 else { return 0 }
        return min(Double(concealed) * 100 / Double(played), 100)
    }

    /// BurstR = 1 / (p + q) fitted to the fates recorded since `earlier`, with the conventions
    /// of ``BurstRatio/TransitionCounts/burstRatio``: 1 when nothing was lost or no received
    /// packet was followed by another (p unobservable), q = 1 when no lost packet was.
    func burstRatio(since earlier: MonitorTotals) -> Double {
        let (now, then) = (transitions, earlier.transitions)
        let foundWithSuccessor = now.foundWithSuccessor &- then.foundWithSuccessor
        let lostWithSuccessor = now.lostWithSuccessor &- then.lostWithSuccessor
        let foundToLost = now.foundToLost &- then.foundToLost
        let lostToFound = now.lostToFound &- then.lostToFound
        guard foundWithSuccessor > 0, foundToLost > 0 || lostWithSuccessor > 0 else { return 1 }
        let p = Double(foundToLost) / Double(foundWithSuccessor)
        let q = lostWithSuccessor > 0 ? Double(lostToFound) / Double(lostWithSuccessor) : 1
        return BurstRatio.markov(lossProbability: p, recoveryProbability: q) ?? 1
    }
}
