/// Where the streams of IPv4 keys were last found in the analyzer's stream dictionary, in a
/// direct-mapped table: a packet of a known stream then costs a multiply and a compare, where
/// the dictionary's own lookup runs a freshly seeded SipHash over the key.
///
/// An index stays valid while the dictionary gains no entry (values updated in place move
/// nothing); the analyzer empties the cache whenever it starts a stream. A key that shares its
/// slot with another, or an IPv6 key, is simply looked up in the dictionary.
struct StreamIndexCache {
    typealias Index = Dictionary<RTPStreamKey, StreamAnalysis>.Index

    private struct Entry {
        var key: RTPStreamKey
        var index: Index
    }

    /// A power of two, several times the streams of a busy capture.
    private static let slotCount = 256
    private var entries = [Entry?](repeating: nil, count: slotCount)

    /// The index remembered for `key`, if any.
    func index(of key: RTPStreamKey) -> Index? {
        guard let slot = Self.slot(of: key), let entry = entries[slot], entry.key == key else { return nil }
        return entry.index
    }

    /// Remembers where `key` is.
    mutating func remember(_ index: Index, for key: RTPStreamKey) {
        guard let slot = Self.slot(of: key) else { return }
        entries[slot] = Entry(key: key, index: index)
    }

    /// Forgets every index (the dictionary gained an entry).
    mutating func removeAll() {
        for slot in entries.indices { entries[slot] = nil }
    }

    /// The slot of an IPv4 key: the top bits of a multiplicative hash of its addresses, ports
    /// and SSRC; `nil` for IPv6.
    private static func slot(of key: RTPStreamKey) -> Int? {
        guard case .v4(let from) = key.source.address, case .v4(let to) = key.destination.address else { return nil }
        let addresses = UInt64(from.rawValue) << 32 | UInt64(to.rawValue)
        let portsAndSource = UInt64(key.source.port) << 48 | UInt64(key.destination.port) << 32 | UInt64(key.ssrc)
        let mixed = (addresses &* 0x9E37_79B9_7F4A_7C15 ^ portsAndSource) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 56)
    }
}
