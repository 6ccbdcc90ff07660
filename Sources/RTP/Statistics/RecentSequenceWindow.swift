/// Which of the last 128 extended sequence numbers have arrived, in two words: enough to tell
/// a duplicate from a late packet within RFC 3550's MAX_MISORDER (100) without allocating.
struct RecentSequenceWindow: Sendable {
    /// The highest extended sequence number marked so far; bit 0 of `bits` stands for it and
    /// bit k for `highest - k`.
    private(set) var highest: Int64?
    private var bits: (low: UInt64, high: UInt64) = (0, 0)

    /// The window's span.
    static let span: Int64 = 128

    /// Marks `sequence` as arrived and returns whether it had arrived before. A number older than
    /// the window is reported as new.
    mutating func markArrival(of sequence: Int64) -> Bool {
        guard let highest else {
            self.highest = sequence
            bits = (1, 0)
            return false
        }
        if sequence > highest {
            shift(by: sequence - highest)
            self.highest = sequence
            bits.low |= 1
            return false
        }
        let age = highest - sequence
        guard age < Self.span else { return false }
        let mask: UInt64 = 1 << UInt64(age % 64)
        let seen = (age < 64 ? bits.low : bits.high) & mask != 0
        if age < 64 { bits.low |= mask } else { bits.high |= mask }
        return seen
    }

    /// Forgets everything (the source restarted).
    mutating func reset() {
        highest = nil
        bits = (0, 0)
    }

    private mutating func shift(by distance: Int64) {
        if distance >= Self.span {
            bits = (0, 0)
        } else if distance >= 64 {
            bits = (0, bits.low << UInt64(distance - 64))
        } else if distance > 0 {
            bits = (bits.low << UInt64(distance), bits.high << UInt64(distance) | bits.low >> UInt64(64 - distance))
        }
    }
}
