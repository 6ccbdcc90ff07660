/// Packets handed over from the network thread, copied into storage allocated at creation.
final class PacketInbox {
    let capacity: Int
    let maximumPayloadBytes: Int
    private let payloads: UnsafeMutableRawBufferPointer
    private var lengths: [Int]
    private var headers: [(sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, ssrc: UInt32)]
    private var arrivals: [Double]
    private(set) var count = 0

    init(capacity: Int, maximumPayloadBytes: Int) {
        self.capacity = max(capacity, 1)
        self.maximumPayloadBytes = max(maximumPayloadBytes, 1)
        payloads = .allocate(byteCount: self.capacity * self.maximumPayloadBytes, alignment: 16)
        payloads.initializeMemory(as: UInt8.self, repeating: 0)
        lengths = [Int](repeating: 0, count: self.capacity)
        headers = Array(repeating: (0, 0, false, 0, 0), count: self.capacity)
        arrivals = [Double](repeating: 0, count: self.capacity)
    }

    deinit { payloads.deallocate() }

    /// Copies `packet` in; returns `false` (and keeps nothing) when full or oversized.
    func append(_ packet: IncomingPacket, arrivalMilliseconds: Double) -> Bool {
        guard count < capacity, packet.payload.count <= maximumPayloadBytes else { return false }
        UnsafeMutableRawBufferPointer(rebasing: payloads[(count * maximumPayloadBytes)...]).copyMemory(from: packet.payload)
        lengths[count] = packet.payload.count
        headers[count] = (packet.sequenceNumber, packet.timestamp, packet.marker, packet.payloadType, packet.ssrc)
        arrivals[count] = arrivalMilliseconds
        count += 1
        return true
    }

    /// Calls `body` with each packet in arrival order, then empties the inbox.
    func drain(_ body: (IncomingPacket, Double) -> Void) {
        for index in 0..<count {
            let header = headers[index]
            let start = index * maximumPayloadBytes
            let packet = IncomingPacket(
                sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, marker: header.marker,
                payloadType: header.payloadType, ssrc: header.ssrc,
                payload: UnsafeRawBufferPointer(rebasing: payloads[start..<(start + lengths[index])])
            )
            body(packet, arrivals[index])
        }
        count = 0
    }
}
