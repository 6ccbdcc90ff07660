import BenchmarkHarness

/// Every benchmark suite `mediabench bench` knows, in the order they run.
public enum SuiteRegistry {
    /// The suites; to add one, write `static let yourSuite = BenchmarkSuite(…)` in an
    /// `extension BenchmarkSuite` in its own file here and list it below.
    public static let all: [BenchmarkSuite] = [
        .selfCheck,
        .g711,
        .opus,
        .rtp,
        .srtp,
        .jitter,
        .analyze,
        .session,
    ]

    /// The suite named `name`, if there is one.
    public static func suite(named name: String) -> BenchmarkSuite? {
        all.first { $0.name == name }
    }
}
