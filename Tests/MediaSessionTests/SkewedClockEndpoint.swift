import Codecs
import Glibc
import Locking
import MediaSession

/// A sound card in software: an audio endpoint with a sample clock of its own, running
/// `skewPartsPerMillion` off its nominal rate against CLOCK_MONOTONIC, timed the way ALSA
/// times a card. Playback queues what is written and plays it at the skewed rate (an
/// underrun when the queue runs dry, counted; the device then waits for the next write, as
/// ALSA restarts a stream); a write blocks while the queue is full. Capture produces frames
/// at the same skewed rate from `source` (then silence) into a buffer as large as playback's;
/// a read blocks until a period is there. When the buffer overflows (not read in time), the
/// read finds the overrun as ALSA's does: everything captured and not read is discarded and
/// capture starts again from then, the read waiting for a fresh period; the overruns and the
/// frames they lost are counted and reported in ``captureLoss()``, as a sound card's are. One
/// read can also stall the calling thread, as a scheduling hiccup (or a stopped machine) would.
final class SkewedClockEndpoint: AudioEndpoint, @unchecked Sendable {
    // @unchecked: the state is only touched under `state`'s lock.
    private struct State {
        var rate = 0.0
        var bufferFrames = 0.0
        var openedAt: Int64 = 0
        var queued = 0.0
        var playing = false
        var lastUpdate: Int64 = 0
        var captured: Int64 = 0
        var reads = 0
        var underruns = 0
        var overruns = 0
        var framesLost: Int64 = 0
        var sourcePosition = 0
    }

    private let skew: Double
    private let bufferMilliseconds: Int
    private let source: [Int16]
    private let stall: (read: Int, nanoseconds: Int64)?
    private let clock = SystemMonotonicClock()
    private let state = PThreadLock(State())

    /// A device `skewPartsPerMillion` off its rate, with `bufferMilliseconds` of buffer each way
    /// (80 ms: 8 periods, as a session opens ALSA), capturing `source`; with `stallOnRead`, that
    /// read (counted from 1) blocks `stallMilliseconds` first.
    init(skewPartsPerMillion: Double, bufferMilliseconds: Int = 80, source: [Int16] = [], stallOnRead: Int? = nil, stallMilliseconds: Int = 10) {
        skew = skewPartsPerMillion
        self.bufferMilliseconds = bufferMilliseconds
        self.source = source
        stall = stallOnRead.map { ($0, Int64(stallMilliseconds) * 1_000_000) }
    }

    /// Underruns of playback so far.
    var underruns: Int { state.withLock { $0.underruns } }
    /// Overruns of capture so far.
    var overruns: Int { state.withLock { $0.overruns } }
    /// Frames queued for playback now.
    var queuedFrames: Int { state.withLock { state in Int(advance(&state, to: clock.nanoseconds())) } }

    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {
        let rate = Double(playback.sampleRate) * (1 + skew / 1e6)
        let bufferFrames = Double(playback.sampleRate * bufferMilliseconds / 1000)
        let now = clock.nanoseconds()
        state.withLock { $0 = State(rate: rate, bufferFrames: bufferFrames, openedAt: now, lastUpdate: now) }
    }

    func playbackPosition() -> AudioPlaybackPosition? {
        let now = clock.nanoseconds()
        return state.withLock { state in
            let queued = advance(&state, to: now)
            return AudioPlaybackPosition(queuedFrames: Int(queued), underruns: state.underruns)
        }
    }

    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) {
        let frames = Double(pcm.count)
        while true {
            let now = clock.nanoseconds()
            let wait: Int64? = state.withLock { state in
                let queued = advance(&state, to: now)
                guard queued + frames > state.bufferFrames else {
                    if !state.playing {
                        state.playing = true
                        state.lastUpdate = now
                    }
                    state.queued += frames
                    return nil
                }
                return Int64((queued + frames - state.bufferFrames) / state.rate * 1e9) + 1
            }
            guard let wait else { return }
            clock.sleep(untilNanoseconds: now + wait)
        }
    }

    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) {
        let reads = state.withLock { state in
            state.reads += 1
            return state.reads
        }
        if let stall, stall.read == reads { clock.sleep(untilNanoseconds: clock.nanoseconds() + stall.nanoseconds) }
        let frames = Int64(pcm.count)
        while true {
            let now = clock.nanoseconds()
            let wait: Int64? = state.withLock { state in
                let produced = Int64(Double(now - state.openedAt) / 1e9 * state.rate)
                if produced - state.captured > Int64(state.bufferFrames) {
                    // The source plays on through the frames lost, as a talker does.
                    let lost = produced - state.captured
                    state.overruns += 1
                    state.framesLost += lost
                    state.sourcePosition += Int(lost)
                    state.captured = produced
                }
                guard produced - state.captured >= frames else {
                    return Int64(Double(frames - (produced - state.captured)) / state.rate * 1e9) + 1
                }
                state.captured += frames
                for index in 0..<pcm.count {
                    pcm[index] = state.sourcePosition < source.count ? source[state.sourcePosition] : 0
                    state.sourcePosition += 1
                }
                return nil
            }
            guard let wait else { return }
            clock.sleep(untilNanoseconds: now + wait)
        }
    }

    func captureLoss() -> AudioCaptureLoss {
        state.withLock { AudioCaptureLoss(overruns: $0.overruns, frames: Int($0.framesLost)) }
    }

    func close() {}

    /// Plays what the device played up to `now`; returns what is still queued.
    private func advance(_ state: inout State, to now: Int64) -> Double {
        guard state.playing, now > state.lastUpdate else { return state.queued }
        let played = Double(now - state.lastUpdate) / 1e9 * state.rate
        state.lastUpdate = now
        if played > state.queued {
            state.underruns += 1
            state.queued = 0
            state.playing = false
        } else {
            state.queued -= played
        }
        return state.queued
    }
}
