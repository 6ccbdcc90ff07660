/// The one seeded pseudo-random generator of the tests: SplitMix64 (Steele, Lea and Flood,
/// "Fast splittable pseudorandom number generators", OOPSLA 2014), so that random inputs are
/// the same on every run and a failure names a seed that replays it.
///
/// Each call adds the golden-ratio increment to the state and returns the state through
/// SplitMix64's finaliser; the seed is the starting state, so `SplitMix64(seed: 0)` is
/// usable. Not for anything that needs unpredictability (keys use the system generator).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`; the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
