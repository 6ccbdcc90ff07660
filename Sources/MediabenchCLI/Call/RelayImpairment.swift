import NetworkModel

/// The network model of an ``ImpairmentRelay``: independent packet fates for each direction
/// and for each kind of traffic, all drawn from one scenario.
///
/// RTCP shares the scenario (its delays, jitter and losses) but not the media's sequence of
/// fates: it has its own trace, so the few RTCP packets never shift which RTP packets are lost.
/// Seeds: caller → callee RTP `seed`, callee → caller RTP `seed + 1`, RTCP `seed + 2` and
/// `seed + 3` in the same order.
struct RelayImpairment: Sendable {
    private var fates: [PacketFates]

    /// Fates from `scenario` with `seed`, for a call of `seconds`.
    init(scenario: NetworkScenario, seed: UInt64, seconds: Double) {
        fates = (0..<4).map { offset in
            PacketFates(scenario: scenario, seed: seed &+ UInt64(offset), seconds: seconds)
        }
    }

    /// Explicit fates for RTP in each direction; RTCP passes untouched.
    init(callerToCallee: PacketFates, calleeToCaller: PacketFates) {
        let untouched = PacketFates(trace: NetworkTrace(packets: []))
        fates = [callerToCallee, calleeToCaller, untouched, untouched]
    }

    /// The fate of the next datagram of `traffic` going `direction`.
    mutating func next(_ traffic: RelayTraffic, _ direction: RelayDirection) -> PacketFates.Fate {
        fates[traffic.rawValue * 2 + direction.rawValue].next()
    }
}
