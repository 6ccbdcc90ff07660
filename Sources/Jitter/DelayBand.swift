/// Where the playout delay may sit without being moved, in milliseconds off the target delay,
/// and where a move settles. Every move is a change a listener may hear, so there are few, and
/// none undoes the last: the delay grows when it comes within ``growBelow`` of the target (a
/// quantile of 2 ms buckets lags a slow drift), shrinks when more than ``shrinkAbove`` above
/// it, and settles ``settle`` above it, inside the band.
struct DelayBand {
    /// Grow when the delay is less than this above the target.
    let growBelow: Double
    /// Shrink when the delay is more than this above the target.
    let shrinkAbove: Double
    /// Where a move of either kind settles, above the target.
    let settle: Double

    /// The adaptive target's band: grow within 2 ms of the target, shrink 20 ms above it,
    /// settle 3 ms above it. (Settling 6 ms above held a clean call 8 ms above what it needed;
    /// settling 2 ms above, growing within 1 ms, lost 2.3 R on `drift-slow`, where the delay
    /// must grow every few seconds. Settling 1 ms above, growing below the target, gained on
    /// 10 of 11 traces with the `us-male` recording, but a buffer that drift drains by 1 or
    /// 6 ms a second then fell under the network's transit before the next pause.)
    static let adaptive = DelayBand(growBelow: 2, shrinkAbove: 20, settle: 3)
    /// The adaptive target's band while the delay is still the one it started with: the start
    /// is no delay the network showed, so all of it above the settling point goes at the
    /// first pause once the first packets have shown the network.
    static let leavingStart = DelayBand(growBelow: 2, shrinkAbove: 3, settle: 3)
    /// A fixed buffer's: it moves only when clock drift has moved it 10 ms below or 20 ms above
    /// its delay, as a fixed buffer with a skew estimate does.
    static let fixed = DelayBand(growBelow: -10, shrinkAbove: 20, settle: 6)

    /// Below this mouth-to-ear delay, in milliseconds, more delay costs a conversation next to
    /// nothing: G.107's Id grows by about 0.02 R a millisecond up to here (talker echo), and its
    /// interactivity term only starts beyond 100 ms. A clock-drift-filled buffer shrinking at 20 ms
    /// above its target on `drift-fast` (40 ms transit) moved every 21 s; keeping it until
    /// 110 ms mouth-to-ear, it moves once a minute (tuned on the `us-male` recording: R_conv
    /// 78.5 to 79.6 at 5 ms more mean delay; shrinking at 30 or 40 ms above the target instead
    /// gave the same on it, but moves every buffer, not only the ones where delay is free).
    static let freeMouthToEarMilliseconds = 110.0

    /// The same band, shrinking only once the mouth-to-ear delay (`outsideMilliseconds` outside
    /// the buffer and the buffer's delay) reaches ``freeMouthToEarMilliseconds``, for a buffer
    /// whose target is `targetMilliseconds`; where it settles is unchanged.
    func keepingFreeDelay(outsideMilliseconds: Double, targetMilliseconds: Double) -> DelayBand {
        let free = Self.freeMouthToEarMilliseconds - outsideMilliseconds - targetMilliseconds
        return DelayBand(growBelow: growBelow, shrinkAbove: max(shrinkAbove, free), settle: settle)
    }

    /// The same band with every edge `milliseconds` higher.
    func raised(by milliseconds: Double) -> DelayBand {
        DelayBand(growBelow: growBelow + milliseconds, shrinkAbove: shrinkAbove + milliseconds, settle: settle + milliseconds)
    }

    /// Whether a delay `error` milliseconds off the target is left where it is.
    func contains(error: Double) -> Bool {
        error >= growBelow && error <= shrinkAbove
    }
}
