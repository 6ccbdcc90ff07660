/// What a sender that stalled once shows on the wire, from the packets an ``RTPTap`` saw: its
/// sequence-number steps, where its timestamps step by more than a frame, the stall (the longest
/// wait between two packets) and how far its media time moved against the arrivals across it.
struct StalledSenderOnTheWire {
    /// Every packet followed its predecessor's sequence number.
    let sequenceNumbersConsecutive: Bool
    /// The timestamp steps beyond one frame, in RTP units, in order.
    let timestampSkips: [Int]
    /// The index of the last packet before the stall.
    let stallIndex: Int
    /// The longest wait between two packets, in seconds: the stall.
    let longestWaitSeconds: Double
    /// How much later, against their timestamps, packets arrived after the stall than before it
    /// (the median of up to 50 packets each side), in milliseconds.
    let mediaTimeMovedMilliseconds: Double

    /// Reads `packets` (at least two) sent one frame of `frameUnits` apart on a `sampleRate` clock.
    init(_ packets: [RTPTap.Packet], frameUnits: Int, sampleRate: Int) {
        let pairs = zip(packets, packets.dropFirst())
        sequenceNumbersConsecutive = pairs.allSatisfy { $1.sequenceNumber &- $0.sequenceNumber == 1 }
        timestampSkips = pairs.map { Int($1.timestamp &- $0.timestamp) - frameUnits }.filter { $0 != 0 }
        let gaps = pairs.map { $1.arrivalSeconds - $0.arrivalSeconds }
        stallIndex = gaps.indices.max { gaps[$0] < gaps[$1] } ?? 0
        longestWaitSeconds = gaps[stallIndex]
        func offsetMilliseconds(_ slice: ArraySlice<RTPTap.Packet>) -> Double {
            let offsets = slice.map { $0.arrivalSeconds * 1000 - Double($0.timestamp &- packets[0].timestamp) * 1000 / Double(sampleRate) }
            return offsets.sorted()[offsets.count / 2]
        }
        mediaTimeMovedMilliseconds =
            offsetMilliseconds(packets[(stallIndex + 1)...min(packets.count - 1, stallIndex + 50)])
            - offsetMilliseconds(packets[max(0, stallIndex - 50)...stallIndex])
    }
}
