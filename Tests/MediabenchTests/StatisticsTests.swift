import BenchmarkHarness
import Testing

@Suite struct StatisticsTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(Statistics.median([5, 1, 3]) == 3)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        #expect(Statistics.median([7]) == 7)
        #expect(Statistics.median([]) == nil)
    }

    /// Nearest rank: the ⌈p/100 · n⌉-th smallest value.
    @Test func percentileByNearestRank() {
        let hundred = (1...100).map(Double.init).shuffled()
        #expect(Statistics.percentile(95, of: hundred) == 95)
        #expect(Statistics.percentile(50, of: hundred) == 50)
        #expect(Statistics.percentile(100, of: hundred) == 100)
        #expect(Statistics.percentile(0, of: hundred) == 1)
        let twenty = (1...20).map { Double($0) * 10 }
        #expect(Statistics.percentile(95, of: twenty) == 190)  // rank 19
        #expect(Statistics.percentile(95, of: [3, 1, 2, 5, 4]) == 5)  // rank ⌈4.75⌉ = 5
        #expect(Statistics.percentile(40, of: [3, 1, 2, 5, 4]) == 2)  // rank 2
        #expect(Statistics.percentile(95, of: []) == nil)
    }
}
