import BenchmarkHarness
import RTP

extension BenchmarkSuite {
    /// Issue 7: the largest number of concurrent two-way G.711 + SRTP calls this machine
    /// carries in real time, and CPU per call by stage. No peer: ours alone (the libsrtp
    /// comparison is the `srtp` suite's). `--profile` picks the setup (``SessionBenchProfile``):
    /// `softphone` (the default) or `server`.
    ///
    /// - `stage-…` rows: one call-second (two sessions, 50 packets each way, 100 audio ticks
    ///   each) stage by stage, in µs with the share of one core (``SessionStageCosts``);
    ///   `stages-total` sums them; `send-receive-paths` times the session's own send and
    ///   receive paths as a whole, back to back with warm caches, beside the sum of their stages.
    /// - `capacity-N-calls` rows: one per step of the search (``CallCapacitySearch``), with the
    ///   process CPU per call-second and every real-time failure counted in its window.
    /// - `max-real-time-calls`: the figure, with the CPU per call at it and what the stages
    ///   leave unexplained (threads waking, epoll, locks), the process's threads (at the figure,
    ///   fewest and most over the steps), and the load average before and after.
    static let session = session(capacity: nil)

    /// The session suite searching capacity with `plan`, or, when nil, with
    /// ``CallCapacityPlan/standard`` (``CallCapacityPlan/quick`` under `--quick`).
    public static func session(capacity plan: CallCapacityPlan?) -> BenchmarkSuite {
        BenchmarkSuite(
            name: "session",
            summary: "concurrent two-way G.711+SRTP calls carried in real time, and CPU per call by stage (--profile softphone|server)"
        ) { context in
            let profile = try SessionBenchProfile.named(context.options.profile)
            let stagesTotal = try SessionStageCosts.measure(profile: profile, into: context)
            let search = CallCapacitySearch(
                plan: plan ?? (context.options.isQuick ? .quick : .standard), profile: profile, onlyCalls: context.options.calls
            )
            try search.run(into: context, stagesTotalMicroseconds: stagesTotal)
        }
    }
}
