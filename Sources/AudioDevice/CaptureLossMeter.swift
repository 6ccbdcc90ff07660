/// Measures the audio a capture stream lost when it recovered from an overrun or a suspend.
///
/// ALSA stops a capture stream when its buffer fills (the reading thread stopped longer than
/// the buffer holds), and the recovery (`snd_pcm_recover`, a prepare) discards what the buffer
/// held; the next read starts the stream again. Everything the card would have captured from
/// the end of the frames read last to the start of the first frames read after the restart is
/// lost. On a timeline of the card's frames: at the read before, `buffered` frames lay captured
/// beyond those read; by the read after the restart, the time between the two has passed, and
/// the frames that read delivered and those still buffered account for the end of it. So the
/// loss is the elapsed time times the rate, plus what was buffered then, less what was read and
/// what is buffered now. A pure value: the stream gives it the monotonic time each read
/// returned, the frames it delivered and the frames left buffered.
///
/// The time comes from the monotonic clock, read as each read returns, rather than ALSA's
/// status timestamps: those follow whatever timestamp type the PCM was given and, through the
/// plugins a session opens by default (`plug`, `rate`, `pulse`, `null`), are taken when the
/// status is asked for rather than when the hardware pointer moved; after a recovery the
/// trigger timestamp is the restart, which the return of the read after it tells as well. A
/// reading taken late (the thread losing the CPU between the read and the clock) moves the
/// estimate by that lateness, a fraction of a period in practice, either way. A system sleep
/// (a suspend) counts only what the monotonic clock saw: it stops while the system sleeps.
struct CaptureLossMeter {
    /// The stream's rate, frames per second.
    let sampleRate: Int
    /// When the read before returned, and the frames it left buffered.
    private var last: (nanoseconds: Int64, bufferedFrames: Int)?

    /// A meter for a stream at `sampleRate` frames per second.
    init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// Takes a read that returned at `monotonicNanoseconds` having delivered `frames` frames,
    /// with `bufferedFrames` still in the device; `recovered` when the stream recovered from an
    /// overrun or a suspend during it. Returns the frames that recovery lost (0 without one, or
    /// on the stream's first read, which has nothing before it).
    mutating func recordRead(monotonicNanoseconds: Int64, frames: Int, bufferedFrames: Int, recovered: Bool) -> Int {
        defer { last = (monotonicNanoseconds, bufferedFrames) }
        guard recovered, let last else { return 0 }
        let elapsedFrames = (Double(monotonicNanoseconds - last.nanoseconds) * Double(sampleRate) / 1e9).rounded()
        return max(0, Int(elapsedFrames) + last.bufferedFrames - frames - bufferedFrames)
    }
}
