import Codecs

/// The audio a session captures and plays, 10 ms at a time, on the thread that ticks the
/// session: its own audio thread, or the shared media clock of a ``MediaRuntime``.
///
/// The session calls ``open(capture:playback:)`` once on that thread, then, every 10 ms,
/// ``playbackPosition()``, ``write(_:)`` and ``read(into:)``, then ``close()``; never from two
/// threads at once.
/// Implementations must not allocate in `read` and `write`. The session paces the calls with
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
}

extension AudioEndpoint {
    /// No clock of its own: the session's monotonic timer paces the endpoint.
    public func playbackPosition() -> AudioPlaybackPosition? {
        nil
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
