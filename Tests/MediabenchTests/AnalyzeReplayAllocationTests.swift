import BenchmarkHarness
import Codecs
import Jitter
import PlayoutLab
import Testing
import TestSupport

/// The analyzer's jitter-buffer replay allocates nothing per packet or pull once warm (the
/// counter counts every thread, so each check takes the fewest allocations over attempts).
@Suite(.countsAllocations)
struct AnalyzeReplayAllocationTests {
    @Test func replayingG711PacketsAllocatesNothing() {
        let replay = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000)
        let payload = UnsafeMutableRawBufferPointer.allocate(byteCount: 160, alignment: 1)
        defer { payload.deallocate() }
        payload.initializeMemory(as: UInt8.self, repeating: 0x55)
        var sequence: UInt16 = 0
        var heard = 0
        func receive(_ count: Int) {
            for _ in 0..<count {
                // Every 25th packet lost, a little jitter: concealment and stretching run too.
                if sequence % 25 != 24 {
                    replay.receive(
                        sequenceNumber: sequence, timestamp: UInt32(sequence) &* 160, marker: false, payloadType: 0,
                        payload: UnsafeRawBufferPointer(payload),
                        arrivalMilliseconds: Double(sequence) * 20 + Double(sequence % 7) * 3
                    ) { heard += $0.count }
                }
                sequence &+= 1
            }
        }
        receive(500)
        let fewest = (0..<20).map { _ in AllocationCounter.counting { receive(50) }.allocations }.min() ?? .max
        #expect(fewest == 0)
        #expect(heard > 500 * 160)
    }
}
