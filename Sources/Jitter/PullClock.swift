/// The instants the pulls were due, from the instants they came. A pull clock ticks on a grid
/// of whole periods, but the thread that pulls may run a few milliseconds late under load; a
/// late pull still fills the same place of the output (the device's buffer, the next period),
/// so the playout delay and the delay each packet needed belong on the grid, not on the late
/// instant. The grid's phase is the earliest of the recent pulls (each one's time less its
/// periods since the first), as the fastest packet is the network's reference: pulls are
/// never early, only late. A gap of more than two periods between pulls (the clock stopped or
/// restarted) starts the grid again.
struct PullClock {
    /// The period between pulls, milliseconds.
    let periodMilliseconds: Double
    private var phases: SlidingMinimum
    private var pulls = 0
    private var lastMilliseconds = -Double.infinity

    /// The number of recent pulls whose earliest phase is the grid's: short enough that a pull
    /// clock running 800 ppm slow moves the grid by 0.13 ms at most, long enough to span a
    /// stretch of late pulls on a busy machine.
    static let window = 16

    init(periodMilliseconds: Double) {
        self.periodMilliseconds = periodMilliseconds
        phases = SlidingMinimum(window: Self.window)
    }

    /// The instant the pull that came at `nowMilliseconds` was due: `nowMilliseconds`, or
    /// earlier when it came later than the recent pulls' grid.
    mutating func dueMilliseconds(pullAt nowMilliseconds: Double) -> Double {
        let gap = nowMilliseconds - lastMilliseconds
        lastMilliseconds = nowMilliseconds
        if !(gap >= 0 && gap <= 2 * periodMilliseconds) {
            phases.removeAll()
            pulls = 0
        }
        let elapsed = Double(pulls) * periodMilliseconds
        pulls += 1
        return phases.append(nowMilliseconds - elapsed) + elapsed
    }
}
