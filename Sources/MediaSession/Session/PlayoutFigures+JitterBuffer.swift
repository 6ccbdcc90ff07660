public import Jitter
public import QualityMetrics

extension PlayoutFigures {
    /// The figures of our jitter buffer's statistics, field for field.
    public init(_ statistics: JitterBufferStatistics) {
        self.init(
            currentDelayMilliseconds: statistics.currentDelayMilliseconds,
            targetDelayMilliseconds: statistics.targetDelayMilliseconds,
            latePackets: statistics.latePackets, discardedPackets: statistics.packetsDiscarded,
            concealedSamples: statistics.concealedSamples, playedSamples: statistics.playedSamples,
            interruptions: statistics.interruptions
        )
    }
}
