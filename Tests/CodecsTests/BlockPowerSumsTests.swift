import Testing
import TestSupport

@testable import Codecs

/// The pause detector's block sums eight samples at a time
/// (``BlockPowerSums/contiguous(_:count:)``) against the sample-at-a-time reference
/// (``BlockPowerSums/strided(_:count:stride:)``) and against sums worked out by hand: equal to
/// the last bit on random audio of every length up to 100 and of the lengths around 20 ms
/// frames and 10 ms blocks up to 48 kHz, and on the inputs at the edge of its 32-bit lanes
/// (full-scale negative samples, whose squares and products are 2^30 and whose pair sums reach
/// 2^31).
@Suite struct BlockPowerSumsTests {
    private static func sums(_ samples: [Int16]) -> (simd: [Int64], reference: [Int64]) {
        samples.withUnsafeBufferPointer { buffer in
            let simd = BlockPowerSums.contiguous(buffer.baseAddress!, count: buffer.count)
            let reference = BlockPowerSums.strided(buffer.baseAddress!, count: buffer.count, stride: 1)
            return ([simd.squares, simd.products], [reference.squares, reference.products])
        }
    }

    @Test func knownAnswers() {
        let full: Int64 = 1 << 30
        let positive: Int64 = 32_767 * 32_767
        let mixed: Int64 = -32_768 * 32_767
        #expect(Self.sums([-32_768]).simd == [full, 0])
        #expect(Self.sums([Int16](repeating: -32_768, count: 17)).simd == [17 * full, 16 * full])
        #expect(Self.sums([Int16](repeating: 32_767, count: 9)).simd == [9 * positive, 8 * positive])
        // Alternating full scale: every product is −32 768 · 32 767.
        let alternating: [Int16] = (0..<24).map { $0 % 2 == 0 ? .min : .max }
        let alternatingSquares: Int64 = 12 * full + 12 * positive
        #expect(Self.sums(alternating).simd == [alternatingSquares, 23 * mixed])
        #expect(Self.sums([Int16](repeating: 0, count: 33)).simd == [0, 0])
        let small: [Int16] = [3, -4, 5, 0, 0, 0, 0, 0, 0, 2]
        let smallSquares: Int64 = 9 + 16 + 25 + 4
        let smallProducts: Int64 = -12 - 20
        #expect(Self.sums(small).simd == [smallSquares, smallProducts])
    }

    @Test func equalsTheReferenceOnRandomAndEdgeInputs() {
        var random = SplitMix64(seed: 0xB10C)
        let edges: [Int16] = [.min, .max, .min + 1, -1, 0, 1]
        for count in Array(1...100) + [159, 160, 161, 479, 480, 481, 1440] {
            let noise = (0..<count).map { _ in Int16(truncatingIfNeeded: random.next()) }
            let extremes = (0..<count).map { _ in edges[Int(random.next() % UInt64(edges.count))] }
            let negativeFullScale = [Int16](repeating: .min, count: count)
            for samples in [noise, extremes, negativeFullScale] {
                let (simd, reference) = Self.sums(samples)
                #expect(simd == reference, "\(count) samples")
            }
        }
    }
}
