/// The burst ratio BurstR of the E-model (ITU-T G.107 (06/2015) §7.5): the mean length of
/// observed loss bursts divided by the mean length expected for random loss at the same rate.
/// It is 1 for random loss and above 1 for bursty loss.
///
/// Under a two-state Markov model of loss, with p the probability of going from the "found"
/// state to the "lost" state and q that of going back, G.107 gives BurstR = 1 / (p + q).
public enum BurstRatio {
    /// BurstR = 1 / (p + q) for a two-state Markov loss model.
    ///
    /// - Parameters:
    ///   - p: the loss probability, P(found → lost) per packet, in 0...1.
    ///   - q: the recovery probability, P(lost → found) per packet, in 0...1.
    /// - Returns: BurstR, or `nil` when p + q is not a positive number (the chain never
    ///   changes state, so there is no burst length to compare).
    public static func markov(lossProbability p: Double, recoveryProbability q: Double) -> Double? {
        guard (0...1).contains(p), (0...1).contains(q), p + q > 0 else { return nil }
        return 1 / (p + q)
    }

    /// BurstR estimated from an observed sequence, `true` meaning lost, by fitting the
    /// two-state Markov model: p = (found → lost transitions) / (found packets followed by
    /// another), q = (lost → found transitions) / (lost packets followed by another).
    ///
    /// - Returns: 1 when nothing was lost (random by convention), `nil` when the sequence has
    ///   fewer than two packets or no found packet is followed by another (p unobservable).
    public static func estimate<Losses: Sequence<Bool>>(fromLosses losses: Losses) -> Double? {
        var counts = TransitionCounts()
        for lost in losses { counts.record(lost: lost) }
        return counts.burstRatio
    }

    /// Transition counts of a loss sequence, fed one packet at a time; a streaming form of
    /// ``BurstRatio/estimate(fromLosses:)`` that keeps no history.
    public struct TransitionCounts: Sendable, Hashable, Codable {
        /// Found packets followed by another packet.
        public private(set) var foundWithSuccessor: UInt64 = 0
        /// Lost packets followed by another packet.
        public private(set) var lostWithSuccessor: UInt64 = 0
        /// Found → lost transitions.
        public private(set) var foundToLost: UInt64 = 0
        /// Lost → found transitions.
        public private(set) var lostToFound: UInt64 = 0
        /// Packets recorded.
        public private(set) var packets: UInt64 = 0
        private var previousLost: Bool?

        /// Empty counts.
        public init() {}

        /// Records the next packet of the sequence.
        public mutating func record(lost: Bool) {
            packets &+= 1
            if let previous = previousLost {
                if previous {
                    lostWithSuccessor &+= 1
                    if !lost { lostToFound &+= 1 }
                } else {
                    foundWithSuccessor &+= 1
                    if lost { foundToLost &+= 1 }
                }
            }
            previousLost = lost
        }

        /// p, the estimated P(found → lost), or `nil` before any found packet had a successor.
        public var lossProbability: Double? {
            foundWithSuccessor == 0 ? nil : Double(foundToLost) / Double(foundWithSuccessor)
        }

        /// q, the estimated P(lost → found), or `nil` before any lost packet had a successor.
        public var recoveryProbability: Double? {
            lostWithSuccessor == 0 ? nil : Double(lostToFound) / Double(lostWithSuccessor)
        }

        /// BurstR = 1 / (p + q): 1 when nothing was lost, `nil` with fewer than two packets or
        /// when no found packet is followed by another.
        public var burstRatio: Double? {
            guard packets >= 2, let p = lossProbability else { return nil }
            guard foundToLost > 0 || lostWithSuccessor > 0 else { return 1 }
            // A loss in the last packet only has no successor: it ends in the lost state, q is
            // then unobserved and taken as 1 (a burst of one).
            return BurstRatio.markov(lossProbability: p, recoveryProbability: recoveryProbability ?? 1)
        }
    }
}
