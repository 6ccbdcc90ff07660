/// The two sums a block's band powers come from (``NoiseFloorVoiceActivityDetector``): of the
/// squared samples, and of the products of each sample with the one before it (from the second
/// sample on). Both exact in 64-bit integers.
enum BlockPowerSums {
    /// The sums over `count` samples (at least one) `stride` apart, one sample at a time: the
    /// reference, and the path for interleaved audio. Each square or product fits in 32 bits.
    static func strided(_ samples: UnsafePointer<Int16>, count: Int, stride: Int) -> (squares: Int64, products: Int64) {
        let first = Int32(samples[0])
        var squares = Int64(first &* first)
        var products: Int64 = 0
        for index in 1..<count {
            let sample = Int32(samples[index &* stride])
            let previous = Int32(samples[(index &- 1) &* stride])
            squares &+= Int64(sample &* sample)
            products &+= Int64(sample &* previous)
        }
        return (squares, products)
    }

    /// The sums over `count` contiguous samples (at least one), eight at a time in SIMD lanes,
    /// equal to ``strided(_:count:stride:)`` with a stride of 1 for every input.
    ///
    /// Each step multiplies eight samples by themselves and by the eight before them in 32-bit
    /// lanes and adds neighbouring lanes (what SSE2's `pmaddwd` does in one instruction), then
    /// widens the four pair sums to 64-bit lanes. A pair of squares lies in 0...2^31, exact as
    /// `UInt32`. A pair of products lies in −2^31 + 2^16 ... 2^31, one value too wide for
    /// `Int32`; shifted up by ``productBias`` it lies in 0 ... 2^32 − 2^16, exact as `UInt32`
    /// (the wrapping 32-bit sum is right modulo 2^32), and the bias is taken off the total.
    static func contiguous(_ samples: UnsafePointer<Int16>, count: Int) -> (squares: Int64, products: Int64) {
        let first = Int32(samples[0])
        var squares = Int64(first &* first)
        var products: Int64 = 0
        var squareLanes = SIMD4<UInt64>()
        var productLanes = SIMD4<UInt64>()
        let bias = SIMD4<Int32>(repeating: productBias)
        let raw = UnsafeRawPointer(samples)
        var index = 1
        while index &+ 8 <= count {
            let current = SIMD8<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: index &* 2, as: SIMD8<Int16>.self))
            let previous = SIMD8<Int32>(
                truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: (index &- 1) &* 2, as: SIMD8<Int16>.self))
            let squared = current &* current
            let multiplied = current &* previous
            squareLanes &+= SIMD4<UInt64>(truncatingIfNeeded: SIMD4<UInt32>(truncatingIfNeeded: squared.evenHalf &+ squared.oddHalf))
            productLanes &+= SIMD4<UInt64>(
                truncatingIfNeeded: SIMD4<UInt32>(truncatingIfNeeded: multiplied.evenHalf &+ multiplied.oddHalf &+ bias))
            products &-= 4 &* Int64(productBias)
            index &+= 8
        }
        while index < count {
            let sample = Int32(samples[index])
            let previous = Int32(samples[index &- 1])
            squares &+= Int64(sample &* sample)
            products &+= Int64(sample &* previous)
            index &+= 1
        }
        return (squares &+ Int64(squareLanes.wrappedSum()), products &+ Int64(bitPattern: productLanes.wrappedSum()))
    }

    /// What lifts a sum of two products (at least −2^31 + 2^16) to zero or above: 2^31 − 2^16.
    static var productBias: Int32 { Int32.max - 65_535 }
}
