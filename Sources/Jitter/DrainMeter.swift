/// How fast the playout drains the buffer by itself: the rate at which the buffer had to add
/// delay (stretching, and concealment played in place while a late packet was awaited) over
/// the last ``spanSeconds`` (from ``firstSpanSeconds`` on, over what there is), less what the
/// target's own moves asked for. That is
/// the drift between the sender's clock and the clock that pulls (a sound card's crystal on
/// either side); on a network without drift it hovers near zero.
///
/// The delay moves in the pauses of the speech, every 2–3 s: a buffer draining at several
/// milliseconds a second falls that much below its target between two pauses and plays late
/// packets as concealment (±3000 ppm sound cards drain 6 ms a second: 17 ms between pauses).
/// So after growing, the buffer settles as far above its target as it will drain before the
/// next pause (``anticipationMilliseconds``). Fixed storage, filled once a second of playout.
struct DrainMeter {
    /// The span of playout the rate is measured over.
    static let spanSeconds = 20
    /// The shortest span measured: a call drains from its start.
    static let firstSpanSeconds = 5
    /// The pause the anticipation covers, in seconds (the buffer's wait for a pause).
    static let pauseSeconds = 3.0
    /// The most delay kept in anticipation, in milliseconds.
    static let maximumAnticipationMilliseconds = 20.0
    /// Once a second: the delay added so far less the target then, milliseconds.
    private var samples: [Double]
    private var next = 0
    private var filled = 0
    /// How far above its target the buffer settles after growing: what it drains until the
    /// next pause, at most ``maximumAnticipationMilliseconds``; none when it fills. Kept from
    /// one ``record(addedMilliseconds:targetMilliseconds:)`` to the next: the buffer reads it
    /// at every pull.
    private(set) var anticipationMilliseconds = 0.0

    init() {
        samples = [Double](repeating: 0, count: Self.spanSeconds + 1)
    }

    /// Takes the figure of one more second of playout: the net delay the buffer has added so
    /// far (stretching's inserted less removed, plus concealment held in place) and the target
    /// delay now, both in milliseconds.
    mutating func record(addedMilliseconds: Double, targetMilliseconds: Double) {
        samples[next] = addedMilliseconds - targetMilliseconds
        next = (next + 1) % samples.count
        filled = min(filled + 1, samples.count)
        anticipationMilliseconds = min(max(millisecondsPerSecond * Self.pauseSeconds, 0), Self.maximumAnticipationMilliseconds)
    }

    /// Milliseconds a second the playout drained (positive) or filled (negative) the buffer over
    /// the span; zero until ``firstSpanSeconds`` are measured.
    var millisecondsPerSecond: Double {
        let span = filled - 1
        guard span >= Self.firstSpanSeconds else { return 0 }
        let newest = samples[(next + samples.count - 1) % samples.count]
        let oldest = samples[(next + samples.count - filled) % samples.count]
        return (newest - oldest) / Double(span)
    }
}
