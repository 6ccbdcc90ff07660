import BenchmarkHarness
import RTP

extension BenchmarkSuite {
    /// Issue 7: the largest number of concurrent two-way G.711 + SRTP calls this machine
    /// carries in real time, and CPU per call by stage. No peer: ours alone.
    static let session = session(capacity: nil)

    /// The session suite searching capacity with `plan`, or, when nil, with
    /// ``CallCapacityPlan/standard`` (``CallCapacityPlan/quick`` under `--quick`).
    public static func session(capacity plan: CallCapacityPlan?) -> BenchmarkSuite {
        BenchmarkSuite(
            name: "session",
            summary: "concurrent two-way G.711+SRTP calls carried in real time, and CPU per call by stage"
        ) { context in
            let suite = SRTPCryptoSuite.aes128CounterModeHMACSHA1Tag80
            let stagesTotal = try SessionStageCosts.measure(suite: suite, into: context)
            let search = CallCapacitySearch(plan: plan ?? (context.options.isQuick ? .quick : .standard), suite: suite)
            try search.run(into: context, stagesTotalMicroseconds: stagesTotal)
        }
    }
}
