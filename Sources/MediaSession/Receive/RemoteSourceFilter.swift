import RTP

/// Decides which synchronisation source is the peer's: the first one seen, then a new one only
/// after it sends ``probationPackets`` packets in sequence with nothing from the current source
/// in between (RFC 3550 A.1's probation, applied to SSRC changes). A forged packet with a
/// random SSRC is therefore dropped instead of hijacking the stream.
struct RemoteSourceFilter {
    enum Verdict: Equatable {
        /// From the current source.
        case current
        /// The first source, or a new one that passed probation.
        case switched(from: UInt32?, to: UInt32)
        /// From another source: drop it.
        case foreign
    }

    /// Sequential packets a new source must send before it replaces the current one.
    static let probationPackets = 3

    private(set) var current: UInt32?
    private var candidate: UInt32?
    private var candidateNextSequence: UInt16 = 0
    private var candidateCount = 0

    mutating func admit(ssrc: UInt32, sequence: UInt16) -> Verdict {
        guard let current else {
            self.current = ssrc
            return .switched(from: nil, to: ssrc)
        }
        if ssrc == current {
            candidate = nil
            return .current
        }
        if ssrc == candidate, sequence == candidateNextSequence {
            candidateCount += 1
        } else {
            candidate = ssrc
            candidateCount = 1
        }
        candidateNextSequence = sequence &+ 1
        guard candidateCount >= Self.probationPackets else { return .foreign }
        self.current = ssrc
        candidate = nil
        return .switched(from: current, to: ssrc)
    }
}
