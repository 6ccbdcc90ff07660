import Codecs
import Testing

@testable import Jitter

/// ``JitterBuffer/hotRegions(_:)``: what a thread serving many buffers warms ahead of a buffer's
/// turn covers what the turn then touches, for a steady stream with jitter (the server leg's
/// case): the payload the next pull decodes, the slot the next packet is written to, and where
/// the decoder writes. A structural check, no timing: the regions are compared with the
/// addresses the buffer then uses.
@Suite struct CacheWarmingTests {
    /// The regions `buffer` reports now.
    private static func regions(of buffer: borrowing JitterBuffer<ConstantDecoder>) -> [(start: UInt, end: UInt)] {
        var regions: [(start: UInt, end: UInt)] = []
        buffer.hotRegions { address, bytes in
            let start = UInt(bitPattern: Int(bitPattern: address))
            regions.append((start, start + UInt(bytes)))
        }
        return regions
    }

    /// Whether the `bytes` bytes at `address` lie inside one of `regions`.
    private static func covered(_ address: UnsafeRawPointer?, bytes: Int, by regions: [(start: UInt, end: UInt)]) -> Bool {
        guard let address else { return false }
        let start = UInt(bitPattern: Int(bitPattern: address))
        return regions.contains { $0.start <= start && start + UInt(bytes) <= $0.end }
    }

    @Test func theRegionsCoverWhatASteadyStreamsNextInsertAndPullTouch() {
        var configuration = JitterBufferConfiguration()
        configuration.initialDelayMilliseconds = 20
        configuration.minimumDelayMilliseconds = 20
        var buffer = JitterBuffer(decoder: ConstantDecoder(), configuration: configuration)
        var pcm = [Int16](repeating: 0, count: buffer.samplesPerPull)
        var next = 0
        var checkedInserts = 0
        var checkedPulls = 0
        for pull in 0..<2000 {
            let now = Double(pull * 10)
            // 20 ms packets arriving 0–13 ms late.
            while next < 1000, Double(next * 20 + (next * 7919) % 14) <= now {
                let regions = Self.regions(of: buffer)
                if let slot = buffer.store.freeSlot() {
                    #expect(Self.covered(buffer.store.memory(of: slot).baseAddress, bytes: 160, by: regions), "packet \(next)")
                    checkedInserts += 1
                }
                insert(next, into: &buffer, arrival: Double(next * 20 + (next * 7919) % 14))
                next += 1
            }
            let regions = Self.regions(of: buffer)
            if let slot = buffer.store.earliest() {
                let payload = buffer.store.payload(slot)
                #expect(Self.covered(payload.baseAddress, bytes: payload.count, by: regions), "pull \(pull)")
                #expect(Self.covered(buffer.decodeScratch.baseAddress, bytes: 160 * 2, by: regions), "pull \(pull)")
                checkedPulls += 1
            }
            _ = pcm.withUnsafeMutableBufferPointer { buffer.pull(into: $0, nowMilliseconds: now) }
        }
        #expect(checkedInserts == 1000)
        #expect(checkedPulls > 900)
        #expect(buffer.statistics.packetsReceived == 1000)
    }
}
