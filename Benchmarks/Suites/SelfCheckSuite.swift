import BenchmarkHarness

extension BenchmarkSuite {
    /// Checks the harness itself: a trivial Swift loop side by side with the same loop in
    /// Swift's standard library and in C (`Benchmarks/peers/self-check.c`), and a case that
    /// allocates once per operation to prove the allocation counter counts.
    static let selfCheck = BenchmarkSuite(
        name: "self-check",
        summary: "the harness itself: a summing loop in Swift vs C, and a counted allocation"
    ) { context in
        let count = 1024
        let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        defer { buffer.deallocate() }
        for index in buffer.indices { buffer[index] = UInt32(truncatingIfNeeded: index &* 2_654_435_761) }
        // Each operation changes one element then sums them all, so no compiler can hoist the
        // sum out of the loop; the C peer does exactly the same.
        context.measure(
            BenchmarkCase(
                "sum-1k", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        for iteration in 0..<iterations {
                            buffer[iteration & (count - 1)] = UInt32(truncatingIfNeeded: iteration)
                            var sum: UInt32 = 0
                            for value in buffer { sum &+= value }
                            blackHole(sum)
                        }
                    },
                    .peer("swift-reduce") { iterations in
                        for iteration in 0..<iterations {
                            buffer[iteration & (count - 1)] = UInt32(truncatingIfNeeded: iteration)
                            blackHole(buffer.reduce(0, &+))
                        }
                    },
                    .program(PeerProgram("self-check")),
                ]))
        context.measure(
            BenchmarkCase(
                "allocate-64-bytes", countsAllocations: true,
                implementations: [
                    .ours { iterations in
                        for iteration in 0..<iterations {
                            blackHole([UInt8](repeating: UInt8(truncatingIfNeeded: iteration), count: identity(64)))
                        }
                    },
                    .program(PeerProgram("self-check")),
                ]))
    }
}
