/// How the call's encoder sizes its in-band forward error correction (Opus sent to a peer
/// that asked for `useinbandfec=1`) from the loss the peer reports on our stream in RTCP, the
/// way WebRTC softphones set `OPUS_SET_PACKET_LOSS_PERC`.
///
/// libopus spends bits on redundancy in proportion to the loss it expects, so a fixed guess
/// costs quality on a clean path and protects too little on a lossy one. The policy:
/// - until the peer's first report, the encoder expects ``initialPercent``;
/// - the first report replaces that guess: the expected loss becomes its target;
/// - a report's target is its fraction lost plus ``marginPercent`` (0 when nothing was lost),
///   clamped to 0…``maximumPercent``;
/// - a target above the current expected loss applies at once; below it, the expected loss
///   falls towards it by ``decayPercentPerSecond`` (so the estimate follows the worst recent
///   reports and forgets them slowly);
/// - the encoder is told whenever the rounded expected loss changes.
public struct LossAdaptation: Sendable, Equatable {
    /// The expected loss, in percent, until the peer's first RTCP report (at most a few
    /// seconds: the first report is due after half the RTCP minimum interval). Default 1.
    public var initialPercent: Double
    /// Added to a non-zero reported loss, in percentage points, because the loss of the next
    /// seconds may exceed that of the last ones. Default 1.
    public var marginPercent: Double
    /// The most loss FEC is ever sized for, in percent. Default 25.
    public var maximumPercent: Double
    /// How fast the expected loss falls after the reported loss drops, in percentage points
    /// per second. Default 0.2 (from 25 % to none in about two minutes).
    public var decayPercentPerSecond: Double

    /// A policy with the defaults above, overridden by whatever is passed.
    public init(initialPercent: Double = 1, marginPercent: Double = 1, maximumPercent: Double = 25, decayPercentPerSecond: Double = 0.2) {
        self.initialPercent = initialPercent
        self.marginPercent = marginPercent
        self.maximumPercent = maximumPercent
        self.decayPercentPerSecond = decayPercentPerSecond
    }

    /// The expected loss a report of `reportedPercent` loss calls for: the loss plus the
    /// margin (0 when nothing was lost), clamped to 0…``maximumPercent``. On a network that
    /// keeps losing `reportedPercent`, this is the expected loss the encoder settles at, the
    /// fixed setting an offline replay (`mediabench simulate`) uses to sound like the call.
    public func targetPercent(reportedPercent: Double) -> Double {
        guard reportedPercent > 0 else { return 0 }
        return min(max(reportedPercent + marginPercent, 0), maximumPercent)
    }
}
