import RTP

/// The send path's RTP timestamps: the next frame's, one frame further at every frame
/// interval whatever is sent, and further still by the audio the capture lost
/// (``skip(lostCaptureFrames:)``), so that the peer's timeline keeps the media time the sender
/// lived through. A pure value.
///
/// A loss skips whole frames, the number nearest to the audio lost; what the rounding left
/// over (less than half a frame either way) is carried into the next loss, so that losses
/// never add up to a drift. The arithmetic is exact in integers for any capture rate against
/// the RTP clock (16 kHz G.722 capture on its 8 kHz clock, 48 kHz Opus, 8 kHz G.711), and the
/// timestamp wraps around as RTP's does.
struct SendTimestamps {
    /// The timestamp of the next frame.
    private(set) var next: RTPTimestamp
    /// RTP clock units in one frame (a packet's audio).
    let unitsPerFrame: Int
    /// The RTP clock rate, units per second.
    let clockRate: Int
    /// The capture rate the lost frames are counted at, frames per second.
    let captureSampleRate: Int
    /// Audio lost and not skipped yet, in capture frames times the clock rate (exact): what
    /// earlier skips rounded away, within half a frame either way.
    private var owedScaledUnits = 0

    /// Timestamps from `start`, `unitsPerFrame` apart, on a `clockRate` clock for audio captured
    /// at `captureSampleRate`.
    init(start: RTPTimestamp, unitsPerFrame: Int, clockRate: Int, captureSampleRate: Int) {
        next = start
        self.unitsPerFrame = unitsPerFrame
        self.clockRate = clockRate
        self.captureSampleRate = captureSampleRate
    }

    /// One frame interval has passed.
    mutating func advanceFrame() {
        next = next.advanced(by: unitsPerFrame)
    }

    /// Skips the media time of `lostCaptureFrames` frames the capture lost, in whole frames
    /// (with what earlier skips rounded away); returns the RTP units skipped.
    mutating func skip(lostCaptureFrames: Int) -> Int {
        owedScaledUnits += max(0, lostCaptureFrames) * clockRate
        let frameScaledUnits = unitsPerFrame * captureSampleRate
        guard frameScaledUnits > 0 else { return 0 }
        // Never negative: what is owed is at least minus half a frame.
        let frames = (owedScaledUnits + frameScaledUnits / 2) / frameScaledUnits
        owedScaledUnits -= frames * frameScaledUnits
        let units = frames * unitsPerFrame
        next = next.advanced(by: units)
        return units
    }
}
