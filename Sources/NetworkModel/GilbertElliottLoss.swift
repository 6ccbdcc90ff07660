/// The Gilbert–Elliott two-state loss model: a good and a bad state, each with its own loss
/// probability, and Markov transitions between them once per packet.
public struct GilbertElliottLoss: Sendable, Equatable {
    /// The probability of moving from the good to the bad state at each packet (`p`).
    public var goodToBad: Double
    /// The probability of moving from the bad to the good state at each packet (`r`).
    public var badToGood: Double
    /// The probability that a packet is lost in the bad state (`1 − h`).
    public var lossInBad: Double
    /// The probability that a packet is lost in the good state (`1 − k`).
    public var lossInGood: Double

    /// A model with the four classic parameters.
    public init(goodToBad: Double, badToGood: Double, lossInBad: Double = 1, lossInGood: Double = 0) {
        self.goodToBad = goodToBad
        self.badToGood = badToGood
        self.lossInBad = lossInBad
        self.lossInGood = lossInGood
    }

    /// No loss at all.
    public static let none = GilbertElliottLoss(goodToBad: 0, badToGood: 1, lossInBad: 0, lossInGood: 0)

    /// Independent (Bernoulli) loss of probability `rate`.
    public static func random(_ rate: Double) -> GilbertElliottLoss {
        GilbertElliottLoss(goodToBad: 0, badToGood: 1, lossInBad: rate, lossInGood: rate)
    }

    /// The long-run fraction of packets lost: the stationary mix of the two states' loss rates.
    public var stationaryLossRate: Double {
        let transitions = goodToBad + badToGood
        guard transitions > 0 else { return lossInGood }
        return (goodToBad * lossInBad + badToGood * lossInGood) / transitions
    }

    /// The mean number of consecutive packets lost in a burst when only the bad state loses
    /// every packet (`lossInBad` = 1, `lossInGood` = 0): the mean sojourn in the bad state, `1/r`.
    public var meanBadStateLength: Double {
        badToGood > 0 ? 1 / badToGood : .infinity
    }
}

/// The running state of a ``GilbertElliottLoss`` model.
public struct GilbertElliottState: Sendable {
    /// The model's parameters.
    public let model: GilbertElliottLoss
    /// Whether the channel is in the bad state now.
    public private(set) var isBad = false

    /// A channel that starts in the good state.
    public init(model: GilbertElliottLoss) {
        self.model = model
    }

    /// Decides the fate of the next packet, then moves the chain one step; `true` means lost.
    public mutating func nextPacketIsLost(using generator: inout SeededGenerator) -> Bool {
        let lost = generator.nextBernoulli(isBad ? model.lossInBad : model.lossInGood)
        isBad = generator.nextBernoulli(isBad ? 1 - model.badToGood : model.goodToBad)
        return lost
    }
}
