import MediaSession

/// The system's wall clock stepped by `stepNanoseconds` while the unstepped clock is in
/// [`from`, `until`): one step forward (for a positive step) at `from` and one back at `until`.
/// The kernel's receive timestamps step with it, as they do when the real clock steps.
struct SteppedWallClock: WallClock {
    let stepNanoseconds: Int64
    let from: Int64
    let until: Int64
    private let system = SystemWallClock()

    init(stepNanoseconds: Int64, from: Int64, until: Int64) {
        self.stepNanoseconds = stepNanoseconds
        self.from = from
        self.until = until
    }

    func nanoseconds() -> Int64 {
        stepped(system.nanoseconds())
    }

    func receiveTimestamp(kernelNanoseconds: Int64) -> Int64 {
        stepped(kernelNanoseconds)
    }

    private func stepped(_ time: Int64) -> Int64 {
        time >= from && time < until ? time + stepNanoseconds : time
    }
}
