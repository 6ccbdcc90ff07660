/// What an outside jitter buffer played when a network trace was replayed through it, pull by
/// pull (the output of a jitter peer, `Benchmarks/peers/JITTER-PEERS.md`).
public struct PeerPlayout: Sendable, Equatable {
    /// The peer's name and version, as it prints it (`speexdsp 1.2.1 jitter buffer`).
    public let implementation: String
    /// The setting of the peer's main knob it really ran with.
    public let knob: KnobSetting
    /// One pull per frame from the first arrival to the last pull that played a packet. The
    /// empty pulls a peer prints after its last played packet (the protocol's tail) are dropped.
    public let pulls: [PeerPull]

    /// A knob as a peer reports it: `knob,latency,200,ms`.
    public struct KnobSetting: Sendable, Equatable {
        /// The knob's name in the peer (`latency`, `max_late_rate`, `prefetch`).
        public let name: String
        /// Its value.
        public let value: Double
        /// The unit of `value` (`ms`, `percent`, `frames`).
        public let unit: String

        /// A knob named `name` set to `value` `unit`.
        public init(name: String, value: Double, unit: String) {
            self.name = name
            self.value = value
            self.unit = unit
        }
    }

    /// The unwrapped sequence numbers played, in playout order.
    public var playedSequences: [Int64] { pulls.compactMap(\.playedSequence) }

    /// Reads a peer's standard output: its name and version, its knob, then one pull per line.
    public init(parsing output: String, peer: String) throws(JitterPeerError) {
        let lines = output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let name = lines.first, !name.isEmpty else {
            throw .badOutput(peer: peer, lineNumber: 1, line: "", expected: "the peer's name and version")
        }
        implementation = String(name)
        guard lines.count > 1 else {
            throw .badOutput(peer: peer, lineNumber: 2, line: "", expected: "knob,NAME,VALUE,UNIT")
        }
        knob = try Self.knob(parsing: lines[1], peer: peer)
        var pulls: [PeerPull] = []
        pulls.reserveCapacity(lines.count)
        for (offset, line) in lines.dropFirst(2).enumerated() where !line.isEmpty {
            pulls.append(try Self.pull(parsing: line, lineNumber: offset + 3, peer: peer))
        }
        let lastPlayed = pulls.lastIndex { $0.playedSequence != nil } ?? -1
        self.pulls = Array(pulls[...lastPlayed])
    }

    private static func knob(parsing line: Substring, peer: String) throws(JitterPeerError) -> KnobSetting {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "knob", !fields[1].isEmpty, let value = Double(fields[2]) else {
            throw .badOutput(peer: peer, lineNumber: 2, line: String(line), expected: "knob,NAME,VALUE,UNIT")
        }
        return KnobSetting(name: String(fields[1]), value: value, unit: String(fields[3]))
    }

    private static func pull(parsing line: Substring, lineNumber: Int, peer: String) throws(JitterPeerError) -> PeerPull {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        let outcome: PeerPull.Outcome? =
            switch fields.count == 2 ? fields[1] : "" {
            case "-": .missing
            case "buffering": .buffering
            case let field: Int64(field).map { .played(sequence: $0) }
            }
        guard let outcome, let time = Double(fields[0]), time.isFinite else {
            throw .badOutput(peer: peer, lineNumber: lineNumber, line: String(line), expected: "PULL_MS,SEQ|-|buffering")
        }
        return PeerPull(timeMilliseconds: time, outcome: outcome)
    }
}

/// One pull of a peer's playout clock.
public struct PeerPull: Sendable, Equatable {
    /// When the pull happened, in the trace's milliseconds (the clock of `arrival_ms`).
    public let timeMilliseconds: Double
    /// What the peer gave for it.
    public let outcome: Outcome

    /// What a pull gave.
    public enum Outcome: Sendable, Equatable {
        /// The packet with this unwrapped sequence number.
        case played(sequence: Int64)
        /// Nothing where a frame was due (lost, late, or the buffer ran dry): concealment.
        case missing
        /// Nothing, on purpose: the peer was building up its buffer (before the first packet
        /// plays, or to grow its delay).
        case buffering
    }

    /// The unwrapped sequence number played, or nil when nothing was.
    public var playedSequence: Int64? {
        if case .played(let sequence) = outcome { sequence } else { nil }
    }
}
