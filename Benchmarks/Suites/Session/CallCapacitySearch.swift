import BenchmarkHarness
import Foundation
import RTP

/// Finds the largest number of concurrent two-way calls (``LoopbackCalls``) this machine
/// carries in real time, following a ``CallCapacityPlan``; records one row per step tried and
/// a `max-real-time-calls` row with the figure and the process CPU time per call at it.
struct CallCapacitySearch {
    /// One step's outcome: how many calls, whether they kept up, and what they cost.
    struct Step {
        /// Concurrent calls.
        let calls: Int
        /// Which try of this count it was, from 1.
        let attempt: Int
        /// What failed during the window (nothing, if the calls kept up).
        let counters: RealTimeCounters
        /// Process CPU time used during the window.
        let cpuSeconds: Double
        /// The window's length as measured.
        let windowSeconds: Double
        /// How busy the whole machine was during the window (all processes, all cores), in percent.
        let machineBusyPercent: Double?
        /// The jitter buffers' mean playout delay at the window's end, in milliseconds.
        let playoutDelayMilliseconds: Double
        /// The process's threads in the middle of the window.
        let threads: Int?
        /// CPU time used during the window by the engine's threads, by name (`media-io`,
        /// `media-audio`).
        let threadCPUSeconds: [String: Double]

        /// Process CPU time per call per second of audio, in microseconds.
        var cpuMicrosecondsPerCallSecond: Double {
            cpuSeconds * 1_000_000 / (Double(calls) * windowSeconds)
        }
    }

    /// Step lengths, tries and resolution.
    let plan: CallCapacityPlan
    /// How the calls are set up and threaded.
    let profile: SessionBenchProfile
    /// The one count to run (`--calls`), instead of searching; nil searches.
    var onlyCalls: Int?

    /// Runs the search (or, with ``onlyCalls``, that one step), records its rows into `context`
    /// and returns the largest count that kept up (0 when even one call did not).
    /// `stagesTotalMicroseconds` (the stages' CPU per call-second) is set beside the measured
    /// CPU, to show what threading adds.
    @discardableResult
    func run(into context: BenchmarkContext, stagesTotalMicroseconds: Double) throws -> Int {
        let loadBefore = CPUUsage.loadAverage()
        var threadCounts: [Int] = []
        let (passing, failingCalls) =
            if let onlyCalls {
                try tryStep(calls: onlyCalls, into: context, threadCounts: &threadCounts).map { ($0, nil) } ?? (nil, onlyCalls)
            } else {
                try search(into: context, threadCounts: &threadCounts)
            }
        context.record(
            summaryRow(
                suite: context.suite, passing: passing, failingCalls: failingCalls, loadBefore: loadBefore,
                stagesTotalMicroseconds: stagesTotalMicroseconds, threadCounts: threadCounts
            ))
        return passing?.calls ?? 0
    }

    /// Doubles the calls from 1 until a step fails, then bisects; returns the last passing
    /// step and the least failing count.
    private func search(into context: BenchmarkContext, threadCounts: inout [Int]) throws -> (passing: Step?, failingCalls: Int?) {
        var passing: Step?
        var failingCalls: Int?
        var calls = 1
        while failingCalls == nil, calls <= plan.maximumCalls {
            if let step = try tryStep(calls: calls, into: context, threadCounts: &threadCounts) {
                passing = step
                // Doubling, but the maximum itself is tried before the search gives up climbing.
                calls = calls == plan.maximumCalls ? calls + 1 : min(calls * 2, plan.maximumCalls)
            } else {
                failingCalls = calls
            }
        }
        while let failing = failingCalls, failing - (passing?.calls ?? 0) > tolerance(above: passing?.calls ?? 0) {
            let middle = ((passing?.calls ?? 0) + failing) / 2
            if let step = try tryStep(calls: middle, into: context, threadCounts: &threadCounts) {
                passing = step
            } else {
                failingCalls = middle
            }
        }
        return (passing, failingCalls)
    }

    /// The `max-real-time-calls` row: the figure, the CPU per call at it, the threads (at it,
    /// and the fewest and most over every step), and the conditions.
    private func summaryRow(
        suite suiteName: String, passing: Step?, failingCalls: Int?, loadBefore: Double?, stagesTotalMicroseconds: Double,
        threadCounts: [Int]
    ) -> BenchmarkRow {
        var row = BenchmarkRow(suite: suiteName, caseName: "max-real-time-calls", implementation: "ours", unit: "calls")
        row.median = Double(passing?.calls ?? 0)
        row.setField("max_calls", .integer(passing?.calls ?? 0))
        row.setField("first_failing_calls", failingCalls.map(BenchmarkValue.integer) ?? .string("none up to \(onlyCalls ?? plan.maximumCalls)"))
        if let passing {
            let cpu = passing.cpuMicrosecondsPerCallSecond
            row.setField("cpu_us_per_call_second", .number(cpu))
            row.setField("cpu_percent_of_core_per_call", .number(cpu / 10_000))
            row.setField("stages_total_us_per_call_second", .number(stagesTotalMicroseconds))
            row.setField("threading_overhead_us_per_call_second", .number(cpu - stagesTotalMicroseconds))
            row.setField("machine_busy_percent", passing.machineBusyPercent.map(BenchmarkValue.number) ?? .string("unknown"))
            row.setField("threads", passing.threads.map(BenchmarkValue.integer) ?? .string("unknown"))
        }
        if let fewest = threadCounts.min(), let most = threadCounts.max() {
            row.setField("threads_fewest_over_steps", .integer(fewest))
            row.setField("threads_most_over_steps", .integer(most))
        }
        row.setField("profile", .string(profile.rawValue))
        row.setField("codec", "PCMU")
        row.setField("srtp", .string(profile.srtpSuite.sdesName))
        row.setField("echo_cancel_denoise", profile.cancelsEchoAndDenoises ? "on" : "off")
        row.setField("jitter_delay_floor_ms", .number(LoopbackCalls.jitterDelayFloorMilliseconds))
        row.setField("window_seconds", .number(plan.windowSeconds))
        row.setField("load_average_before", loadBefore.map(BenchmarkValue.number) ?? .string("unknown"))
        row.setField("load_average_after", CPUUsage.loadAverage().map(BenchmarkValue.number) ?? .string("unknown"))
        return row
    }

    /// How far apart the passing and failing counts may stay.
    private func tolerance(above calls: Int) -> Int {
        max(1, Int(Double(calls) * plan.resolution))
    }

    /// Runs `calls` calls up to ``CallCapacityPlan/attemptsPerStep`` times, recording each
    /// try and its thread count; returns the try that kept up, or nil when none did.
    private func tryStep(calls: Int, into context: BenchmarkContext, threadCounts: inout [Int]) throws -> Step? {
        for attempt in 1...plan.attemptsPerStep {
            let step = try runStep(calls: calls, attempt: attempt)
            context.record(row(for: step, suite: context.suite))
            if let threads = step.threads { threadCounts.append(threads) }
            if step.counters.keptUp { return step }
        }
        return nil
    }

    private func runStep(calls: Int, attempt: Int) throws -> Step {
        let talkSeconds = Int((plan.warmUpSeconds + plan.windowSeconds).rounded(.up)) + 2
        let running = try LoopbackCalls(count: calls, profile: profile, seconds: talkSeconds)
        defer { running.stop() }
        Thread.sleep(forTimeInterval: plan.warmUpSeconds)
        let countersBefore = running.counters
        let cpuBefore = CPUUsage.processSeconds()
        let threadsBefore = CPUUsage.threadSecondsByName()
        let machineBefore = CPUUsage.machineTicks()
        let start = ContinuousClock.now
        Thread.sleep(forTimeInterval: plan.windowSeconds / 2)
        let threads = CPUUsage.threadCount()
        Thread.sleep(forTimeInterval: plan.windowSeconds / 2)
        let cpuSeconds = CPUUsage.processSeconds() - cpuBefore
        var threadCPUSeconds: [String: Double] = [:]
        for (name, seconds) in CPUUsage.threadSecondsByName() where name.hasPrefix("media-") {
            threadCPUSeconds[name] = seconds - (threadsBefore[name] ?? 0)
        }
        let machineBusyPercent = CPUUsage.busyPercent(from: machineBefore, to: CPUUsage.machineTicks())
        let elapsed = ContinuousClock.now - start
        let counters = running.counters.since(countersBefore)
        let playoutDelay = running.meanPlayoutDelayMilliseconds
        let (seconds, attoseconds) = elapsed.components
        return Step(
            calls: calls, attempt: attempt, counters: counters, cpuSeconds: cpuSeconds,
            windowSeconds: Double(seconds) + Double(attoseconds) / 1e18, machineBusyPercent: machineBusyPercent,
            playoutDelayMilliseconds: playoutDelay, threads: threads, threadCPUSeconds: threadCPUSeconds
        )
    }

    /// A step's row: its CPU per call-second as the figure, its failure counters as fields.
    private func row(for step: Step, suite: String) -> BenchmarkRow {
        let caseName = step.attempt == 1 ? "capacity-\(step.calls)-calls" : "capacity-\(step.calls)-calls-try-\(step.attempt)"
        var row = BenchmarkRow(suite: suite, caseName: caseName, implementation: "ours", unit: "µs CPU/call-s")
        row.median = step.cpuMicrosecondsPerCallSecond
        let counters = step.counters
        row.setField("calls", .integer(step.calls))
        row.setField("kept_up", .string(counters.keptUp ? "yes" : "no"))
        row.setField("concealed_samples", .integer(counters.concealedSamples))
        row.setField("late_packets", .integer(counters.latePackets))
        row.setField("discarded_packets", .integer(counters.discardedPackets))
        row.setField("late_audio_ticks", .integer(counters.lateAudioTicks))
        row.setField("lost_packets", .integer(Int(clamping: counters.lostPackets)))
        row.setField("send_failures", .integer(counters.sendFailures))
        row.setField("packets_received", .integer(counters.packetsReceived))
        row.setField("process_cpu_percent", .number(step.cpuSeconds * 100 / step.windowSeconds))
        row.setField("machine_busy_percent", step.machineBusyPercent.map(BenchmarkValue.number) ?? .string("unknown"))
        row.setField("mean_playout_delay_ms", .number(step.playoutDelayMilliseconds))
        row.setField("threads", step.threads.map(BenchmarkValue.integer) ?? .string("unknown"))
        for (name, seconds) in step.threadCPUSeconds.sorted(by: { $0.key < $1.key }) {
            row.setField(
                "cpu_us_per_call_second_\(name.replacingOccurrences(of: "-", with: "_"))_threads",
                .number(seconds * 1_000_000 / (Double(step.calls) * step.windowSeconds)))
        }
        return row
    }
}
