/// A case, implementation or suite that could not be measured; the rest of the bench goes on.
public struct BenchmarkFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The suite's name.
    public let suite: String
    /// The case's name, or `nil` when the suite itself failed.
    public let caseName: String?
    /// The implementation that failed, when known.
    public let implementation: String?
    /// What went wrong.
    public let message: String

    /// A failure of `implementation` in `caseName` of `suite`.
    public init(suite: String, caseName: String?, implementation: String?, message: String) {
        self.suite = suite
        self.caseName = caseName
        self.implementation = implementation
        self.message = message
    }

    /// `suite/case (implementation): message`.
    public var description: String {
        let place = [suite, caseName].compactMap { $0 }.joined(separator: "/")
        let who = implementation.map { " (\($0))" } ?? ""
        return "\(place)\(who): \(message)"
    }
}
