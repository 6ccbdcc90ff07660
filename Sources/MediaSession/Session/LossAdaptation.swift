/// How the call's encoder sizes its in-band forward error correction (Opus sent to a peer
/// that asked for `useinbandfec=1`) from the loss the peer reports on our stream in RTCP, the
/// way WebRTC softphones set `OPUS_SET_PACKET_LOSS_PERC`.
///
/// libopus spends bits on redundancy in proportion to the loss it expects (and some as soon as
/// it expects any), so a fixed guess costs quality on a clean path and protects too little on a
/// lossy one. The policy:
/// - the reported losses are smoothed: each report moves the estimate towards its fraction
///   lost by the share 1 − e^(−t/``smoothingSeconds``), where t is the time since the report
///   before it, so the estimate does not depend on how often the peer reports; it starts at
///   ``initialPercent``, as if that had been reported;
/// - the encoder expects the estimate plus ``marginPercent``, at most ``maximumPercent``, and
///   none at all while the estimate is under half a percent (a clean path sends no FEC);
/// - the encoder is told whenever the rounded expected loss changes.
public struct LossAdaptation: Sendable, Equatable {
    /// The loss, in percent, assumed before the peer's first report, where the estimate starts
    /// (so a first report covering a few seconds moves it only part of the way). Default 1.
    public var initialPercent: Double
    /// The time constant of the smoothing, in seconds. Default 5: steady 2 % random loss
    /// reported every second (50 packets, 0 to 4 lost each time) keeps the estimate within
    /// about 2 ± 0.6 %, and a jump to 20 % loss is 63 % followed within 5 s.
    public var smoothingSeconds: Double
    /// Added to a smoothed loss of half a percent or more, in percentage points, because the
    /// loss of the next seconds may exceed that of the last ones. Default 1.
    public var marginPercent: Double
    /// The most loss FEC is ever sized for, in percent. Default 25.
    public var maximumPercent: Double

    /// A policy with the defaults above, overridden by whatever is passed.
    public init(initialPercent: Double = 1, smoothingSeconds: Double = 5, marginPercent: Double = 1, maximumPercent: Double = 25) {
        self.initialPercent = initialPercent
        self.smoothingSeconds = smoothingSeconds
        self.marginPercent = marginPercent
        self.maximumPercent = maximumPercent
    }

    /// The expected loss for a smoothed loss of `lossPercent`: none under half a percent, else
    /// the loss plus the margin, at most ``maximumPercent``. On a network that keeps losing
    /// `lossPercent`, this is where the encoder settles: the fixed setting an offline replay
    /// (`mediabench simulate`) uses to sound like the call.
    public func expectedLossPercent(smoothedLossPercent lossPercent: Double) -> Double {
        guard lossPercent >= 0.5 else { return 0 }
        return min(lossPercent + marginPercent, maximumPercent)
    }
}
