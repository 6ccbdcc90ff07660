import NetworkModel

/// What the network does to each datagram of one direction, read from a generated trace: the
/// next datagram takes the trace's next packet row, and is dropped when that row was lost, else
/// delayed by the row's arrival − send time; a duplicate row repeats it with its own delay.
///
/// The trace is read in a loop, so a call longer than the trace goes on with its start again.
struct PacketFates: Sendable {
    /// One datagram's fate: the delays of each delivered copy (empty when lost), in milliseconds.
    typealias Fate = [Double]

    private let fates: [Fate]
    private var position = 0

    /// The fates of `trace`'s packets, one per packet sequence number, in send order; an empty
    /// trace delivers everything at once.
    init(trace: NetworkTrace) {
        var fates: [Fate] = []
        var previousSequence: UInt64?
        for packet in trace.packets {
            let delay = packet.arrivalMilliseconds.map { max($0 - packet.sendMilliseconds, 0) }
            if packet.sequenceNumber == previousSequence, !fates.isEmpty {
                if let delay { fates[fates.count - 1].append(delay) }
            } else {
                fates.append(delay.map { [$0] } ?? [])
            }
            previousSequence = packet.sequenceNumber
        }
        self.fates = fates.isEmpty ? [[0]] : fates
    }

    /// The fates of `scenario`'s trace for `seed`, with the trace at least `seconds` long.
    init(scenario: NetworkScenario, seed: UInt64, seconds: Double) {
        var profile = scenario.profile
        profile.durationSeconds = max(profile.durationSeconds, seconds)
        self.init(trace: TraceGenerator(profile: profile).generate(seed: seed).trace)
    }

    /// The next datagram's fate.
    mutating func next() -> Fate {
        defer { position = (position + 1) % fates.count }
        return fates[position]
    }
}
