/// What the control plane asks of the call, read by the audio thread every 10 ms.
struct CallControl {
    /// Whether the negotiated direction lets us send (false on hold or when inactive).
    var sends = true
    /// Whether the negotiated direction lets the peer send to us (false on hold or when inactive).
    var receives = true
    /// Whether the microphone is muted.
    var muted = false
    /// RFC 4733 event codes waiting to be sent, in order.
    var pendingDigits: [UInt8] = []
    /// Set by `stop()`: the audio thread sends a BYE and ends.
    var stopping = false
    /// A new audio I/O to switch to, taken by the audio thread.
    var pendingAudio: MediaAudioIO?
}
