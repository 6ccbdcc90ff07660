/// Remembers which of the last 1024 sequence numbers have arrived, to tell duplicates from
/// late packets. Fixed storage.
package struct ReceivedWindow {
    package init() {}
    /// The bits inline (not an array on the heap): a packet's check then touches no separate
    /// block, whose header and bits a thread serving hundreds of streams would find cold.
    private typealias Bits = InlineArray<16, UInt64>
    private static let size = UInt64(Bits.count * 64)
    private var bits = Bits(repeating: 0)
    private var highest: UInt64?

    package mutating func removeAll() {
        for word in bits.indices { bits[word] = 0 }
        highest = nil
    }

    /// Records `sequence` and returns whether it had been seen before. Sequence numbers older
    /// than the window count as unseen.
    package mutating func insert(_ sequence: UInt64) -> Bool {
        if let highest {
            if sequence > highest {
                if sequence - highest >= Self.size {
                    for word in bits.indices { bits[word] = 0 }
                } else {
                    var cleared = highest + 1
                    while cleared <= sequence {
                        setBit(cleared, false)
                        cleared += 1
                    }
                }
                self.highest = sequence
            } else if highest - sequence >= Self.size {
                return false
            }
        } else {
            highest = sequence
        }
        let seen = bit(sequence)
        setBit(sequence, true)
        return seen
    }

    private func bit(_ sequence: UInt64) -> Bool {
        let index = sequence % Self.size
        return bits[Int(index / 64)] & (UInt64(1) &<< (index % 64)) != 0
    }

    private mutating func setBit(_ sequence: UInt64, _ value: Bool) {
        let index = sequence % Self.size
        let mask = UInt64(1) &<< (index % 64)
        if value {
            bits[Int(index / 64)] |= mask
        } else {
            bits[Int(index / 64)] &= ~mask
        }
    }
}
