#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The encoded packets waiting for playout, in a fixed number of payload slots allocated at
/// creation. Positions are in output samples per channel on the buffer's media timeline.
///
/// Besides the `capacity` slots that hold packets, the store has `lendableSlots` more that it
/// lends to a ``SynchronizedJitterBuffer``'s inbox: the network thread writes a payload straight
/// into a lent slot, and the slot becomes a stored packet without a second copy
/// (``adopt(_:sequence:position:payloadType:marker:)``) or goes back (``takeBack(_:)``).
/// A slot is free, lent or occupied; only the thread that owns the store changes that.
struct PacketStore: ~Copyable {
    /// What the store knows of one payload slot, kept together so that a packet's comings and
    /// goings touch one cache line rather than one per field.
    private struct Slot {
        var position: Int64 = 0
        var sequence: UInt64 = 0
        var length = 0
        var payloadType: UInt8 = 0
        var marker = false
        var lent = false
    }

    /// How many packets the store holds at most.
    let capacity: Int
    let maximumPayloadBytes: Int
    private let slotCount: Int
    private let payloads: UnsafeMutableRawBufferPointer
    private let slots: UnsafeMutablePointer<Slot>
    /// Bit `slot % 64` of word `slot / 64` is set while `slot` holds a packet.
    private var occupiedWords: [UInt64]
    private var lentCount = 0
    private(set) var count = 0
    /// The slot ``earliest()`` returns, kept as packets come and go (a scan only when the
    /// earliest one leaves).
    private var earliestSlot: Int?

    init(capacity: Int, lendableSlots: Int = 0, maximumPayloadBytes: Int) {
        self.capacity = max(capacity, 1)
        self.maximumPayloadBytes = max(maximumPayloadBytes, 1)
        slotCount = self.capacity + max(lendableSlots, 0)
        // Zeroed by `calloc`, whose large blocks are fresh pages the kernel maps on first use:
        // a stream that keeps a few packets touches a few pages, not the whole store.
        let byteCount = slotCount * self.maximumPayloadBytes
        payloads = UnsafeMutableRawBufferPointer(start: calloc(byteCount, 1), count: byteCount)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(), count: slotCount)
        occupiedWords = [UInt64](repeating: 0, count: (slotCount + 63) / 64)
    }

    deinit {
        free(payloads.baseAddress)
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    var isFull: Bool { count == capacity }

    /// The media position of the packet in `slot`.
    func position(_ slot: Int) -> Int64 { slots[slot].position }
    /// The sequence number of the packet in `slot`.
    func sequence(_ slot: Int) -> UInt64 { slots[slot].sequence }
    /// The payload type of the packet in `slot`.
    func payloadType(_ slot: Int) -> UInt8 { slots[slot].payloadType }
    /// The marker bit of the packet in `slot`.
    func marker(_ slot: Int) -> Bool { slots[slot].marker }

    func slot(sequence: UInt64) -> Int? {
        (0..<slotCount).first { isOccupied($0) && slots[$0].sequence == sequence }
    }

    /// The slot with the earliest media position (the lowest sequence number on ties).
    func earliest() -> Int? { earliestSlot }

    private func isOccupied(_ slot: Int) -> Bool {
        occupiedWords[slot / 64] & (1 &<< UInt64(slot % 64)) != 0
    }

    /// Finds the slot of the earliest packet by a scan of the occupied slots, word by word of
    /// their bits (a steady stream holds a few packets among a hundred slots, not always the
    /// first ones). Mutating, so that the store is not passed by value just after `count`
    /// changed (a load that waits for the store to memory).
    private mutating func scanForEarliest() {
        var best: Int?
        for word in occupiedWords.indices {
            var bits = occupiedWords[word]
            while bits != 0 {
                let slot = word * 64 + bits.trailingZeroBitCount
                bits &= bits &- 1
                if best.map({ (slots[$0].position, slots[$0].sequence) > (slots[slot].position, slots[slot].sequence) }) ?? true { best = slot }
            }
        }
        earliestSlot = best
    }

    /// Copies a packet into a free slot; the caller makes room first when the store is full.
    mutating func insert(
        sequence: UInt64, position: Int64, payloadType: UInt8, marker: Bool, payload: UnsafeRawBufferPointer
    ) {
        guard payload.count <= maximumPayloadBytes, count < capacity, let slot = freeSlot() else { return }
        let storage = memory(of: slot)
        if let source = payload.baseAddress, let destination = storage.baseAddress {
            destination.copyMemory(from: source, byteCount: payload.count)
        }
        slots[slot].length = payload.count
        occupy(slot, sequence: sequence, position: position, payloadType: payloadType, marker: marker)
    }

    /// Lends a free slot, which no packet of the store uses until it comes back through
    /// ``adopt(_:sequence:position:payloadType:marker:)`` or ``takeBack(_:)``; `nil` when
    /// every spare slot is out.
    mutating func lend() -> Int? {
        guard lentCount < slotCount - capacity, let slot = freeSlot() else { return nil }
        slots[slot].lent = true
        lentCount += 1
        return slot
    }

    /// The payload memory of `slot` (`maximumPayloadBytes` long), which stays where it is for
    /// the store's life: a borrower writes a lent slot's payload here.
    func memory(of slot: Int) -> UnsafeMutableRawBufferPointer {
        let start = slot * maximumPayloadBytes
        return UnsafeMutableRawBufferPointer(rebasing: payloads[start..<(start + maximumPayloadBytes)])
    }

    /// Makes the lent `slot`, whose memory holds a `length`-byte payload, a stored packet; the
    /// caller makes room first when the store is full.
    mutating func adopt(_ slot: Int, length: Int, sequence: UInt64, position: Int64, payloadType: UInt8, marker: Bool) {
        guard slots[slot].lent, count < capacity else { return takeBack(slot) }
        slots[slot].lent = false
        lentCount -= 1
        slots[slot].length = min(max(length, 0), maximumPayloadBytes)
        occupy(slot, sequence: sequence, position: position, payloadType: payloadType, marker: marker)
    }

    /// Frees the lent `slot` without storing what it holds.
    mutating func takeBack(_ slot: Int) {
        guard slots[slot].lent else { return }
        slots[slot].lent = false
        lentCount -= 1
    }

    private mutating func occupy(_ slot: Int, sequence: UInt64, position: Int64, payloadType: UInt8, marker: Bool) {
        slots[slot].position = position
        slots[slot].sequence = sequence
        slots[slot].payloadType = payloadType
        slots[slot].marker = marker
        occupiedWords[slot / 64] |= 1 &<< UInt64(slot % 64)
        count += 1
        if let current = earliestSlot, (slots[current].position, slots[current].sequence) <= (position, sequence) { return }
        earliestSlot = slot
    }

    /// The lowest slot neither holding a packet nor lent, where the next packet goes.
    func freeSlot() -> Int? {
        for slot in 0..<slotCount where !isOccupied(slot) && !slots[slot].lent { return slot }
        return nil
    }

    mutating func remove(_ slot: Int) {
        guard isOccupied(slot) else { return }
        occupiedWords[slot / 64] &= ~(1 &<< UInt64(slot % 64))
        count -= 1
        if slot == earliestSlot { scanForEarliest() }
    }

    /// Forgets every stored packet; lent slots stay lent.
    mutating func removeAll() {
        for word in occupiedWords.indices { occupiedWords[word] = 0 }
        count = 0
        earliestSlot = nil
    }

    /// Reports to `visit` what a steady stream's next insert and pull touch: the first slots'
    /// records and the start of their payloads (a stream that keeps a few packets reuses the
    /// lowest free slots), for warming them into the cache ahead.
    func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        let warmedSlots = min(slotCount, Self.warmedSlots)
        visit(UnsafeRawPointer(slots), warmedSlots * MemoryLayout<Slot>.stride)
        guard let payloads = UnsafeRawPointer(payloads.baseAddress) else { return }
        for slot in 0..<warmedSlots {
            visit(payloads + slot * maximumPayloadBytes, min(maximumPayloadBytes, Self.warmedPayloadBytes))
        }
    }

    /// How many of the lowest slots ``hotRegions(_:)`` reports, and how much of each payload
    /// (a 20 ms G.711 payload is 160 bytes).
    private static let warmedSlots = 3
    private static let warmedPayloadBytes = 192

    /// The stored payload of `slot`, valid until the slot is reused.
    func payload(_ slot: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: memory(of: slot)[..<slots[slot].length])
    }
}
