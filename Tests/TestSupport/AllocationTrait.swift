import BenchmarkHarness
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test that counts heap allocations only in a build that can count them.
    ///
    /// Under a sanitizer the counter is left out and every count is 0, so a "no allocation"
    /// test there would pass whatever the code does: it is skipped instead, and the skip says
    /// why. The zero-allocation promises hold in a release build; `scripts/test.sh` runs every
    /// test whose name contains `Allocat` with `swift test -c release`.
    public static var countsAllocations: Self {
        .enabled(if: AllocationCounter.isAvailable, "this build cannot count allocations (a sanitizer interposes malloc), so a zero count would prove nothing")
    }
}
