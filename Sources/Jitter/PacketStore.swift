/// The encoded packets waiting for playout, in a fixed number of slots allocated at creation.
/// Positions are in output samples per channel on the buffer's media timeline.
struct PacketStore: ~Copyable {
    let capacity: Int
    let maximumPayloadBytes: Int
    private let payloads: UnsafeMutableRawBufferPointer
    private var lengths: [Int]
    private(set) var positions: [Int64]
    private(set) var sequences: [UInt64]
    private(set) var payloadTypes: [UInt8]
    private(set) var markers: [Bool]
    private var occupied: [Bool]
    private(set) var count = 0
    /// The slot ``earliest()`` returns, kept as packets come and go (a scan only when the
    /// earliest one leaves).
    private var earliestSlot: Int?

    init(capacity: Int, maximumPayloadBytes: Int) {
        self.capacity = max(capacity, 1)
        self.maximumPayloadBytes = max(maximumPayloadBytes, 1)
        payloads = .allocate(byteCount: self.capacity * self.maximumPayloadBytes, alignment: 16)
        payloads.initializeMemory(as: UInt8.self, repeating: 0)
        lengths = [Int](repeating: 0, count: self.capacity)
        positions = [Int64](repeating: 0, count: self.capacity)
        sequences = [UInt64](repeating: 0, count: self.capacity)
        payloadTypes = [UInt8](repeating: 0, count: self.capacity)
        markers = [Bool](repeating: false, count: self.capacity)
        occupied = [Bool](repeating: false, count: self.capacity)
    }

    deinit { payloads.deallocate() }

    var isFull: Bool { count == capacity }

    func slot(sequence: UInt64) -> Int? {
        (0..<capacity).first { occupied[$0] && sequences[$0] == sequence }
    }

    /// The slot with the earliest media position (the lowest sequence number on ties).
    func earliest() -> Int? { earliestSlot }

    /// The slot of the earliest packet by a scan of every occupied slot.
    private func scanForEarliest() -> Int? {
        guard count > 0 else { return nil }
        var best: Int?
        for slot in 0..<capacity where occupied[slot] {
            if let current = best, (positions[current], sequences[current]) <= (positions[slot], sequences[slot]) {
                continue
            }
            best = slot
        }
        return best
    }

    /// Copies a packet into a free slot; the caller makes room first when the store is full.
    mutating func insert(
        sequence: UInt64, position: Int64, payloadType: UInt8, marker: Bool, payload: UnsafeRawBufferPointer
    ) {
        guard payload.count <= maximumPayloadBytes, let slot = freeSlot(), let storage = payloads.baseAddress else { return }
        if let source = payload.baseAddress {
            (storage + slot * maximumPayloadBytes).copyMemory(from: source, byteCount: payload.count)
        }
        lengths[slot] = payload.count
        positions[slot] = position
        sequences[slot] = sequence
        payloadTypes[slot] = payloadType
        markers[slot] = marker
        occupied[slot] = true
        count += 1
        if let current = earliestSlot, (positions[current], sequences[current]) <= (position, sequence) { return }
        earliestSlot = slot
    }

    private func freeSlot() -> Int? {
        for slot in 0..<capacity where !occupied[slot] { return slot }
        return nil
    }

    mutating func remove(_ slot: Int) {
        guard occupied[slot] else { return }
        occupied[slot] = false
        count -= 1
        if slot == earliestSlot { earliestSlot = scanForEarliest() }
    }

    mutating func removeAll() {
        for slot in 0..<capacity { occupied[slot] = false }
        count = 0
        earliestSlot = nil
    }

    /// The stored payload of `slot`, valid until the slot is reused.
    func payload(_ slot: Int) -> UnsafeRawBufferPointer {
        let start = slot * maximumPayloadBytes
        return UnsafeRawBufferPointer(rebasing: payloads[start..<(start + lengths[slot])])
    }
}
