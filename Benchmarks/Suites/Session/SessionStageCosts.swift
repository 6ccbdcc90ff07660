import BenchmarkHarness
@_spi(Testing) import MediaSession
import RTP

/// CPU per call by stage: ``SessionSecondLoop`` runs one session-second per run, its
/// ``StageTimer`` charges each stage, and a call-second (two sessions, 50 packets each way)
/// costs twice that. Rows are in µs per call-second, with the share of one core.
enum SessionStageCosts {
    /// The unit of the stage rows.
    static let unit = "µs/call-s"

    /// Measures every stage `profile` runs over `context.options.runs` runs (after one warm-up
    /// run), records one row per stage, a `stages-total` row and a `send-receive-paths` check
    /// row; returns the median total in µs per call-second.
    static func measure(profile: SessionBenchProfile, into context: BenchmarkContext) throws -> Double {
        let runs = context.options.runs
        let suite = profile.srtpSuite
        let loop = try SessionSecondLoop(suite: suite, cancelsEchoAndDenoises: profile.cancelsEchoAndDenoises, seconds: runs + 2)
        let stages = CallStage.allCases.filter { $0 != .echoCancelAndDenoise || profile.cancelsEchoAndDenoises }
        var timer = StageTimer()
        try loop.runOneSecond(&timer)
        var samples = [[Double]](repeating: [], count: CallStage.allCases.count)
        for _ in 0..<runs {
            timer.clear()
            try loop.runOneSecond(&timer)
            for stage in CallStage.allCases {
                samples[stage.rawValue].append(timer.nanoseconds[stage.rawValue] * callSecondsPerLoopSecond(stage) / 1000)
            }
        }
        for stage in stages {
            var row = stageRow(stage.caseName, samples[stage.rawValue], context: context)
            row.setField("per_call_second", .number(occurrencesPerCallSecond(stage)))
            context.record(row)
        }
        let totals = (0..<runs).map { run in samples.reduce(0) { $0 + $1[run] } }
        context.record(stageRow("stages-total", totals, context: context))
        let packetPath = CallStage.packetPath.reduce(0) { $0 + (Statistics.median(samples[$1.rawValue]) ?? 0) }
        try measurePaths(suite: suite, stagesSum: packetPath, into: context)
        return Statistics.median(totals) ?? 0
    }

    /// The session's real send and receive paths as a whole (``PipelineProbe``: one frame
    /// encoded, packetised, protected, sent, received, unprotected, recorded, inserted, and
    /// 20 ms pulled), timed by the harness, beside the sum of the same stages measured apart.
    private static func measurePaths(suite: SRTPCryptoSuite, stagesSum: Double, into context: BenchmarkContext) throws {
        let probe = try PipelineProbe(suite: suite)
        let received = probe.exchangeFrame()
        guard probe.exchangeFrame() == received + 1 else {
            throw SessionBenchError("the probe's receive path did not accept its packets: got \(received) after one frame")
        }
        let scratch = BenchmarkContext(suite: context.suite, options: context.options)
        let measured = scratch.measure(
            BenchmarkCase(
                "send-receive-paths",
                implementations: [
                    .ours { iterations in
                        for _ in 0..<iterations { blackHole(probe.exchangeFrame()) }
                    }
                ]))
        for failure in scratch.failures {
            context.recordFailure(failure.caseName, implementation: failure.implementation, SessionBenchError(failure.message))
        }
        guard let frameRow = measured.first else { return }
        // A call-second sends and receives 100 frames (50 each way).
        let scale = 100.0 / 1000
        var row = BenchmarkRow(
            suite: context.suite, caseName: frameRow.caseName, implementation: "ours", unit: unit,
            median: frameRow.median.map { $0 * scale }, p95: frameRow.p95.map { $0 * scale }, runs: frameRow.runs
        )
        row.setField("stages_sum_us_per_call_second", .number(stagesSum))
        context.record(row)
    }

    private static func stageRow(_ caseName: String, _ samples: [Double], context: BenchmarkContext) -> BenchmarkRow {
        let median = Statistics.median(samples)
        var row = BenchmarkRow(
            suite: context.suite, caseName: caseName, implementation: "ours", unit: unit,
            median: median, p95: Statistics.percentile(95, of: samples), runs: samples.count
        )
        row.setField("percent_of_core", .number((median ?? 0) / 10_000))
        return row
    }

    /// How many times a call-second runs `stage`: both sessions' ticks, frames sent and
    /// received, RTCP compounds and quality reports.
    private static func occurrencesPerCallSecond(_ stage: CallStage) -> Double {
        switch stage {
        case .capture, .echoCancelAndDenoise, .jitterPull: 2.0 * Double(SessionSecondLoop.ticksPerSecond)
        case .rtcp: 2 / meanRTCPIntervalSeconds
        case .qualityReport: 2
        default: Double(SessionSecondLoop.ticksPerSecond)
        }
    }

    /// The factor from one loop-second's time for `stage` to one call-second's.
    private static func callSecondsPerLoopSecond(_ stage: CallStage) -> Double {
        stage == .rtcp ? occurrencesPerCallSecond(stage) / Double(SessionSecondLoop.rtcpExchangesPerSecond) : 2
    }

    /// The mean interval between a session's RTCP compounds: RFC 3550's interval with the
    /// inputs the session's schedule uses for a two-party G.711 call (5 % of 64 kbit/s plus
    /// headers, 120-byte compounds, both sending, the 5 s minimum), its random factor averaging 1.
    private static var meanRTCPIntervalSeconds: Double {
        let interval = RTCPTransmissionInterval(
            members: 2, senders: 2, rtcpBandwidth: 0.05 * (8000 + 40 * 50), weSent: true, averagePacketSize: 120,
            initial: false, minimumInterval: MediaSessionConfiguration().rtcpMinimumIntervalSeconds
        )
        return interval.deterministicSeconds / RTCPTransmissionInterval.compensation
    }
}
