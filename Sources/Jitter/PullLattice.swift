/// The playout delays a pull clock tells apart. A packet is in time when the pull that first
/// needs it comes after it; pulls come every ``periodMilliseconds`` and packets start on a grid
/// of whole pulls, so the lateness a playout delay `d` tolerates is not `d` but the largest
/// point of the lattice `phase + k · period` at or below it (the `phase` being where the
/// packets' pulls fall: the time from the fastest packet's arrival to its pull, modulo a
/// period). Every packet's needed delay (its lateness plus its wait for the next pull, as the
/// estimator measures it) lies on that lattice, so a delay between two of its points holds no
/// packet the lower point does not: the milliseconds above the point are only delay.
///
/// The adaptive target is a histogram bucket's upper edge, and the band settles a few
/// milliseconds above it; when a lattice point lies within the target's bucket or above it,
/// below the settling point, settling just above that point plays every packet the settling
/// point would, sooner (``settlingTarget(target:settle:phase:)``). Over a loss-free network with
/// arrivals just after the pulls (two endpoints ticking in phase) the delay settles 1 ms above
/// the 10 ms wait instead of 5 ms above it.
struct PullLattice {
    /// The pull period, milliseconds.
    let periodMilliseconds: Double
    /// The resolution of the target: a needed delay lies at most this far below it.
    let bucketMilliseconds: Double
    /// How far above a lattice point the delay settles, for pull times and arrivals that
    /// wander a little off the lattice.
    static let guardMilliseconds = 1.0

    /// The target that makes a band settling `settle` milliseconds above it settle just above
    /// the highest lattice point (`phase` modulo the period) at or below `target + settle`,
    /// when that point covers the target's bucket (to within ``guardMilliseconds``); otherwise
    /// `target` itself. Never above `target`.
    func settlingTarget(target: Double, settle: Double, phase: Double) -> Double {
        guard periodMilliseconds > 0, target.isFinite, settle.isFinite, phase.isFinite else { return target }
        let settling = target + settle
        let steps = ((settling - phase) / periodMilliseconds).rounded(.down)
        let point = phase + steps * periodMilliseconds
        // A point up to the guard below the bucket is the bucket's own, wandered with the pulls.
        guard point >= target - bucketMilliseconds - Self.guardMilliseconds else { return target }
        return min(target, point + Self.guardMilliseconds - settle)
    }

    /// The lattice's phase: where a packet starting at `packetMilliseconds` on the media
    /// timeline falls against a pull at `pullMilliseconds`, the fastest packet having taken
    /// `referenceMilliseconds` (arrival less media time), modulo the period.
    func phase(pullMilliseconds: Double, referenceMilliseconds: Double, packetMilliseconds: Double) -> Double {
        let offset = pullMilliseconds - referenceMilliseconds - packetMilliseconds
        let remainder = offset.truncatingRemainder(dividingBy: periodMilliseconds)
        return remainder < 0 ? remainder + periodMilliseconds : remainder
    }
}
