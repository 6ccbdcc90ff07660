/// How `bench session` searches for the largest number of calls carried in real time.
///
/// Each step runs N calls for ``warmUpSeconds`` (the jitter buffers settle), then watches them
/// for ``windowSeconds``. N doubles from 1 while steps keep up, then is bisected between the
/// last step that kept up and the first that did not, until the two are within ``resolution``.
public struct CallCapacityPlan: Sendable {
    /// Seconds each step runs before its window opens.
    public var warmUpSeconds: Double
    /// Seconds each step is watched for failures and CPU time.
    public var windowSeconds: Double
    /// The most calls tried.
    public var maximumCalls: Int
    /// Tries of a step before it counts as failed: another engineer's compile on a shared
    /// machine can fail one try without the calls being too many.
    public var attemptsPerStep: Int
    /// The bisection stops when the failing and passing counts differ by at most this fraction
    /// of the passing one (and at least one call).
    public var resolution: Double

    /// A plan with the given settings.
    public init(warmUpSeconds: Double, windowSeconds: Double, maximumCalls: Int, attemptsPerStep: Int, resolution: Double) {
        self.warmUpSeconds = max(warmUpSeconds, 0)
        self.windowSeconds = max(windowSeconds, 0.1)
        self.maximumCalls = max(maximumCalls, 1)
        self.attemptsPerStep = max(attemptsPerStep, 1)
        self.resolution = max(resolution, 0)
    }

    /// The full run: 5 s windows after 1 s of warm-up, two tries per step, bisected to 1/32.
    public static let standard = CallCapacityPlan(
        warmUpSeconds: 1, windowSeconds: 5, maximumCalls: 4096, attemptsPerStep: 2, resolution: 1.0 / 32
    )

    /// `--quick`: 2 s windows, one try per step, bisected to 1/8.
    public static let quick = CallCapacityPlan(
        warmUpSeconds: 0.5, windowSeconds: 2, maximumCalls: 4096, attemptsPerStep: 1, resolution: 1.0 / 8
    )
}
