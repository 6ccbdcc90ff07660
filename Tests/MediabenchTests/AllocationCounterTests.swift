import BenchmarkHarness
import Glibc
import Testing
import TestSupport

/// The counter counts every thread and other tests run in parallel, so each check takes the
/// fewest allocations seen over several attempts: other threads can only add to a count.
@Suite(.countsAllocations)
struct AllocationCounterTests {
    private func fewestAllocations(_ body: () -> Void) -> UInt64 {
        (0..<50).map { _ in AllocationCounter.counting(body).allocations }.min() ?? .max
    }

    @Test func countsEachMallocAndCalloc() {
        let counted = fewestAllocations {
            // Through the sink: in a release build LLVM removes a malloc/free pair whose
            // pointer goes nowhere.
            let first = malloc(identity(64))
            let second = calloc(identity(4), 16)
            blackHole(first)
            blackHole(second)
            free(first)
            free(second)
        }
        #expect(counted == 2)
    }

    @Test func countsASwiftArrayAllocation() {
        let counted = fewestAllocations {
            blackHole([UInt8](repeating: 7, count: identity(256)))
        }
        #expect(counted == 1)
    }

    @Test func countsNothingForALoopOverExistingMemory() {
        let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 1024)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 3)
        let counted = fewestAllocations {
            var sum: UInt32 = 0
            for value in buffer { sum &+= value }
            blackHole(sum)
        }
        #expect(counted == 0)
    }
}
