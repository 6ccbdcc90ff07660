import Jitter

/// The per-pull counts behind a ``PlayoutScore``, shared by the whole-trace score and the
/// streaming replay (``StreamPlayoutReplay``): each pull that expects media either played or
/// concealed; concealing pulls in a row form one concealment event, and an interruption once
/// the run reaches 150 ms.
struct PlayoutTally {
    /// Concealing pulls in a row that make an interruption: 15 × 10 ms = 150 ms.
    static let interruptionPulls = 15

    /// Pulls that expected media.
    private(set) var expectedPulls = 0
    /// Pulls that played decoded media.
    private(set) var playedPulls = 0
    /// Pulls that concealed while media was expected.
    private(set) var concealedPulls = 0
    /// Runs of concealing pulls.
    private(set) var concealmentEvents = 0
    /// Runs of at least ``interruptionPulls``.
    private(set) var interruptions = 0
    /// Media time added or removed by time-stretching, in RTP ticks.
    private(set) var stretchedTicks = 0.0
    private var run = 0

    /// A pull that played the media it expected.
    mutating func recordPlayed() {
        expectedPulls += 1
        playedPulls += 1
        run = 0
    }

    /// A pull that concealed media it expected.
    mutating func recordConcealed() {
        expectedPulls += 1
        concealedPulls += 1
        run += 1
        if run == 1 { concealmentEvents += 1 }
        if run == Self.interruptionPulls { interruptions += 1 }
    }

    /// A pull that expected no media (a pause of the sender, before or after the stream).
    mutating func recordNoMediaExpected() {
        run = 0
    }

    /// A stretched pull whose playout point advanced by `advanceTicks` instead of `pullTicks`.
    mutating func recordStretch(advanceTicks: Double, pullTicks: Double) {
        stretchedTicks += abs(advanceTicks - pullTicks)
    }

    /// Concealing pulls in percent of those expecting media.
    var concealmentPercent: Double {
        expectedPulls == 0 ? 0 : 100 * Double(concealedPulls) / Double(expectedPulls)
    }

    /// Stretched media in percent of the media played, for pulls of `pullTicks`.
    func timeStretchPercent(pullTicks: Double) -> Double {
        let playedTicks = Double(playedPulls) * pullTicks
        return playedTicks == 0 ? 0 : 100 * stretchedTicks / playedTicks
    }
}
