/// Packets handed over from the network thread. Each payload is copied once, into a payload
/// slot that the jitter buffer's store lent the inbox (``JitterBuffer/lendSlot()``); the buffer
/// then stores the packet where it lies. Nothing is allocated after creation.
final class PacketInbox {
    let capacity: Int
    /// The lent slots, `nil` where one went back to the store and none is lent in its place.
    private var slots: [(index: Int, memory: UnsafeMutableRawBufferPointer)?]
    private var lengths: [Int]
    private var headers: [(sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, ssrc: UInt32)]
    private var arrivals: [Double]
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        slots = Array(repeating: nil, count: self.capacity)
        lengths = [Int](repeating: 0, count: self.capacity)
        headers = Array(repeating: (0, 0, false, 0, 0), count: self.capacity)
        arrivals = [Double](repeating: 0, count: self.capacity)
    }

    /// Copies `packet` into the next lent slot; returns `false` (and keeps nothing) when the
    /// inbox is full, holds no slot, or the payload does not fit one.
    func append(_ packet: IncomingPacket, arrivalMilliseconds: Double) -> Bool {
        guard count < capacity, let slot = slots[count], packet.payload.count <= slot.memory.count else { return false }
        if let source = packet.payload.baseAddress, let destination = slot.memory.baseAddress {
            destination.copyMemory(from: source, byteCount: packet.payload.count)
        }
        lengths[count] = packet.payload.count
        headers[count] = (packet.sequenceNumber, packet.timestamp, packet.marker, packet.payloadType, packet.ssrc)
        arrivals[count] = arrivalMilliseconds
        count += 1
        return true
    }

    /// Calls `body` with each packet in arrival order, its payload in the lent slot passed with
    /// it, which then belongs to `body`'s caller again; empties the inbox.
    func drain(_ body: (_ slot: Int, _ packet: IncomingPacket, _ arrivalMilliseconds: Double) -> Void) {
        for index in 0..<count {
            guard let slot = slots[index] else { continue }
            let header = headers[index]
            let packet = IncomingPacket(
                sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, marker: header.marker,
                payloadType: header.payloadType, ssrc: header.ssrc,
                payload: UnsafeRawBufferPointer(rebasing: slot.memory[..<lengths[index]])
            )
            slots[index] = nil
            body(slot.index, packet, arrivals[index])
        }
        count = 0
    }

    /// Fills every empty place with a slot from `lend`, while it has one.
    func restock(_ lend: () -> (slot: Int, memory: UnsafeMutableRawBufferPointer)?) {
        for index in 0..<capacity where slots[index] == nil {
            guard let lent = lend() else { return }
            slots[index] = (lent.slot, lent.memory)
        }
    }
}
