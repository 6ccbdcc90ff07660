import Codecs

@testable import Jitter

/// 20 ms PCMU payloads played through a buffer as one stream: packet n is sent at n × 20 ms
/// (sequence number n, timestamp n × 160, the marker on the first) and inserted once its
/// arrival time has come, with a pull every 10 ms.
enum SteadyPCMUStream {
    /// Runs `pulls` pulls of `buffer` over `payloads` arriving at `arrival(n)` (40 ms after
    /// they were sent by default) and hands each pull's index, decision and the count of
    /// packets inserted so far to `observe`, with the buffer as it stands after the pull.
    static func play(
        _ payloads: [[UInt8]], through buffer: inout JitterBuffer<G711Decoder>, pulls: Int,
        arrival: (Int) -> Double = { Double($0) * 20 + 40 },
        observe: (_ pull: Int, _ decision: PlayoutDecision, _ inserted: Int, _ buffer: borrowing JitterBuffer<G711Decoder>) -> Void
    ) {
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var next = 0
        for pull in 0..<pulls {
            let now = Double(pull) * 10
            while next < payloads.count, arrival(next) <= now {
                _ = payloads[next].withUnsafeBytes { bytes in
                    buffer.insert(
                        IncomingPacket(
                            sequenceNumber: UInt16(truncatingIfNeeded: next), timestamp: UInt32(next * 160), marker: next == 0,
                            payloadType: 0, ssrc: 7, payload: bytes),
                        arrivalMilliseconds: arrival(next))
                }
                next += 1
            }
            let decision = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
            observe(pull, decision, next, buffer)
        }
    }
}
