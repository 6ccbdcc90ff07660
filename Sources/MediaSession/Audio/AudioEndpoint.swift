import Codecs

/// The audio a session captures and plays, 10 ms at a time, on the thread that ticks the
/// session: its own audio thread, or the shared media clock of a ``MediaRuntime``.
///
/// The session calls ``open(capture:playback:)`` once on that thread, then, every 10 ms,
/// ``read(into:)`` and ``write(_:)``, then ``close()``; never from two threads at once.
/// Implementations must not allocate in `read` and `write`. The session paces the calls with
/// a monotonic 10 ms timer; an endpoint of a session with its own thread may also block in
/// them (a sound card waiting for its next period), and the timer then catches up without
/// bursts. An endpoint of a session on a ``MediaRuntime`` must never block: every session on
/// the runtime is ticked by the same thread.
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
}
