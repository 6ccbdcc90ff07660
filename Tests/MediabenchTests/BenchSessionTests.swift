import BenchmarkHarness
import BenchmarkSuites
import Foundation
import Testing

/// `bench session` in a tiny mode: one and two calls for a second each, and two runs of the
/// stage costs; real calls on loopback, so they run alone.
@Suite(.serialized) struct BenchSessionTests {
    /// The plan: warm up a second, then count over one second, with up to two calls.
    private static let plan = CallCapacityPlan(warmUpSeconds: 1, windowSeconds: 1, maximumCalls: 2, attemptsPerStep: 3, resolution: 0)
    /// One report shared by the tests (the run takes several seconds).
    private static let report = BenchmarkRunner(options: BenchmarkOptions(runs: 2, batchNanoseconds: 1_000_000)).run([.session(capacity: plan)])

    /// The same with `--profile server`.
    private static let serverReport = BenchmarkRunner(options: BenchmarkOptions(runs: 2, batchNanoseconds: 1_000_000, profile: "server"))
        .run([.session(capacity: CallCapacityPlan(warmUpSeconds: 1, windowSeconds: 1, maximumCalls: 2, attemptsPerStep: 3, resolution: 0))])

    /// The server profile: calls on one runtime (shared media clock, I/O threads), no echo
    /// cancelling or denoising, so no such stage; the threads are reported at every step.
    @Test func serverProfileCarriesCallsWithoutEchoCancellingAndReportsItsThreads() throws {
        let report = Self.serverReport
        #expect(report.failures.isEmpty, "\(report.failures)")
        let capacity = try #require(report.rows.first { $0.caseName == "max-real-time-calls" })
        #expect((1.0...2.0).contains(capacity.median ?? 0), "\(capacity)")
        #expect(capacity.field("profile") == "server")
        #expect(capacity.field("echo_cancel_denoise") == "off")
        for key in ["threads", "threads_fewest_over_steps", "threads_most_over_steps"] {
            #expect(capacity.field(key)?.integerValue != nil, "max-real-time-calls lacks \(key)")
        }
        let steps = report.rows.filter { $0.caseName.hasPrefix("capacity-") }
        #expect(steps.allSatisfy { $0.field("threads")?.integerValue != nil })
        #expect(!report.rows.contains { $0.caseName == "stage-echo-cancel-denoise" })
        #expect(report.rows.contains { $0.caseName == "stage-jitter-pull" })
    }

    @Test func findsACapacityOfAtLeastOneCall() throws {
        #expect(Self.report.failures.isEmpty, "\(Self.report.failures)")
        let capacity = try #require(Self.report.rows.first { $0.caseName == "max-real-time-calls" })
        #expect((1.0...2.0).contains(capacity.median ?? 0), "\(capacity)")
        #expect(capacity.field("max_calls") == .integer(Int(capacity.median ?? 0)))
        guard case let .number(cpu)? = capacity.field("cpu_us_per_call_second") else {
            Issue.record("no CPU per call: \(capacity)")
            return
        }
        // A call costs something, and less than the two cores of this machine.
        #expect(cpu > 0 && cpu < 2_000_000)
        // Every step that kept up says so, and the capacity is one of them.
        let steps = Self.report.rows.filter { $0.caseName.hasPrefix("capacity-") }
        #expect(steps.contains { $0.field("calls") == capacity.field("max_calls") && $0.field("kept_up") == "yes" })
        // What was sent is known without asking the sessions: each call is two sessions, each
        // sending 50 packets a second (20 ms of audio each) through the counting window. A step
        // that kept up lost nothing, so it received them all, give or take a packet per session
        // at each edge of the window, and a window that overslept on a busy machine.
        for step in steps {
            let calls = try #require(step.field("calls").flatMap(\.integerValue))
            let received = step.field("packets_received").flatMap(\.integerValue) ?? 0
            let sent = Double(2 * calls * 50) * Self.plan.windowSeconds
            #expect(Double(received) <= sent * 1.5 + Double(4 * calls), "\(step.caseName): \(received) received, \(sent) sent")
            if step.field("kept_up") == "yes" {
                #expect(Double(received) >= sent - Double(4 * calls), "\(step.caseName): \(received) received, \(sent) sent")
            }
        }
    }

    @Test func costsEveryStageOfTheCall() {
        let stages = Self.report.rows.filter { $0.caseName.hasPrefix("stage-") }
        #expect(
            stages.map(\.caseName) == [
                "stage-capture", "stage-echo-cancel-denoise", "stage-g711-encode", "stage-rtp-packetise", "stage-srtp-protect",
                "stage-udp-send", "stage-udp-receive", "stage-srtp-unprotect", "stage-rtp-parse-statistics", "stage-jitter-insert",
                "stage-jitter-pull", "stage-rtcp", "stage-quality-report",
            ])
        for row in stages {
            #expect((row.median ?? 0) > 0, "\(row.caseName) costs nothing")
            #expect(row.unit == "µs/call-s")
        }
        let total = Self.report.rows.first { $0.caseName == "stages-total" }?.median ?? 0
        #expect(abs(total - stages.compactMap(\.median).reduce(0, +)) < total * 0.5, "the total is about the sum of the stages")
    }

    @Test func jsonCarriesTheFigures() throws {
        let data = Data(Self.report.jsonText.utf8)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let capacity = try #require(objects.first { $0["case"] as? String == "max-real-time-calls" })
        for key in [
            "suite", "case", "implementation", "unit", "median", "max_calls", "cpu_us_per_call_second", "cpu_percent_of_core_per_call",
            "stages_total_us_per_call_second", "load_average_before", "load_average_after",
        ] {
            #expect(capacity[key] != nil, "max-real-time-calls lacks \(key)")
        }
        let stage = try #require(objects.first { $0["case"] as? String == "stage-srtp-protect" })
        for key in ["median", "p95", "runs", "percent_of_core", "per_call_second"] {
            #expect(stage[key] != nil, "stage-srtp-protect lacks \(key)")
        }
    }
}

extension BenchmarkValue {
    /// The whole number held, if any.
    fileprivate var integerValue: Int? {
        if case let .integer(value) = self { value } else { nil }
    }
}
