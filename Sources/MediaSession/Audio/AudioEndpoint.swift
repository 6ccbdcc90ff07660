import Codecs

/// The audio a session captures and plays, 10 ms at a time, on the thread that ticks the
/// session: its own audio thread, or the shared media clock of a ``MediaRuntime``.
///
/// The session calls ``open(capture:playback:)`` once on that thread, then, every 10 ms,
/// ``playbackPosition()``, ``write(_:)``, ``read(into:)`` and ``captureLoss()``, then ``close()``;
/// never from two threads at once.
/// Implementations must not allocate in `read`, `write` and `captureLoss`. The session paces the calls with
/// a monotonic 10 ms timer; an endpoint of a session with its own thread may also block in
/// them (a sound card waiting for its next period), and the timer then catches up without
/// bursts. An endpoint of a session on a ``MediaRuntime`` must never block: every session on
/// the runtime is ticked by the same thread.
///
/// An endpoint with a sample clock of its own (a sound card) says where its playback stands in
/// ``playbackPosition()``: a session with its own audio thread then keeps 20 ms queued in it
/// (written as silence when it opens) and ticks at the device's pace rather than the monotonic
/// clock's, so that the device's drift against the media clock never underruns or overruns
/// it; the jitter buffer absorbs that drift by its stretching, as it does the sender's.
///
/// An endpoint whose capture can overrun (a sound card, whose buffer overflows when the audio
/// thread stops longer than it holds) says what it lost in ``captureLoss()``: the session then
/// sends the audio after the gap that much later in RTP time, so that the peer hears a gap
/// where the audio was lost rather than the sender's clock stepping back.
public protocol AudioEndpoint: AnyObject {
    /// Prepares capture in the `capture` format and playback in the `playback` format.
    /// - Throws: ``MediaSessionError`` naming the device when it cannot be opened.
    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError)
    /// Fills `pcm` (10 ms of interleaved capture samples) entirely.
    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError)
    /// Plays `pcm` (10 ms of interleaved playback samples).
    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError)
    /// Releases the devices; the endpoint may be opened again (after a device switch).
    func close()
    /// Where playback stands on the device's own clock (frames queued, underruns so far), or
    /// nil for an endpoint without a clock of its own, which the session paces.
    func playbackPosition() -> AudioPlaybackPosition?
    /// What the capture has lost to overruns since the endpoint was opened, read by the audio
    /// thread after each ``read(into:)``; zero for an endpoint whose capture cannot overrun.
    func captureLoss() -> AudioCaptureLoss
}

extension AudioEndpoint {
    /// No clock of its own: the session's monotonic timer paces the endpoint.
    public func playbackPosition() -> AudioPlaybackPosition? {
        nil
    }

    /// Nothing lost: the capture cannot overrun.
    public func captureLoss() -> AudioCaptureLoss {
        AudioCaptureLoss()
    }
}

/// Where an endpoint's playback stands, read by the audio thread just before each write.
public struct AudioPlaybackPosition: Sendable, Equatable {
    /// Frames written and not yet played: the headroom left before an underrun.
    public var queuedFrames: Int
    /// Underruns so far (the device ran out of samples and started again).
    public var underruns: Int

    /// A position as read from the device.
    public init(queuedFrames: Int, underruns: Int) {
        self.queuedFrames = queuedFrames
        self.underruns = underruns
    }
}

/// What an endpoint's capture has lost since it was opened: audio the device captured and the
/// session never read, because the thread that reads it stopped longer than the device's buffer
/// holds (an overrun: ALSA then discards the buffer and starts again).
public struct AudioCaptureLoss: Sendable, Equatable {
    /// Overruns (and suspends) so far.
    public var overruns: Int
    /// Frames, at the capture rate, lost in them so far: the media time by which the frames
    /// read after each one start later than those read before it ended.
    public var frames: Int

    /// A loss as counted by the device; nothing by default.
    public init(overruns: Int = 0, frames: Int = 0) {
        self.overruns = overruns
        self.frames = frames
    }
}
