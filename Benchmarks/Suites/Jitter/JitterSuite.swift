import BenchmarkHarness
import Codecs
import Foundation
import Jitter
import PlayoutLab
import NetworkModel
import QualityMetrics

extension BenchmarkSuite {
    /// Every named network scenario, the real rtpdump traces and any `--trace` files, replayed
    /// through our jitter buffer, fixed-delay baselines and the peers (speexdsp, GStreamer,
    /// pjmedia) at their defaults and across their main knob, all scored by `PlayoutScore`
    /// from what was played; with `--audio`, also speech through every buffer, scored by PESQ.
    static let jitter = BenchmarkSuite(
        name: "jitter", summary: "Jitter buffers on network traces: playout delay against loss, ours, fixed and peers"
    ) { context in
        try measurePullCost(context)
        var traces = NetworkScenario.allCases.map {
            JitterBenchTrace.scenario($0, durationSeconds: context.options.isQuick ? 20 : nil)
        }
        for path in JitterBenchTrace.recordedTraceFiles + context.options.traceFiles {
            do {
                traces.append(try JitterBenchTrace.file(path))
            } catch {
                context.recordFailure(URL(fileURLWithPath: path).lastPathComponent, error)
            }
        }
        if !context.options.traceNames.isEmpty {
            traces = traces.filter { context.options.traceNames.contains($0.name) }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediabench-jitter-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listening =
            try context.options.speechFiles.isEmpty
            ? nil : JitterListeningTest(speechFiles: context.options.speechFiles, folder: folder)
        for trace in traces {
            let firstArrival = trace.simulatedPackets.compactMap(\.arrivalMilliseconds).min() ?? 0
            let oursScore = trace.scoreOurs()
            var ours = JitterBench.row(trace: trace, implementation: "ours", knob: nil, score: oursScore)
            listening?.score(&ours, trace: trace, playout: oursScore, renderStartMilliseconds: firstArrival, context: context) {
                trace.renderOurs($0)
            }
            context.record(ours)
            let listeningPreset = trace.scoreOurs(configuration: .listening)
            var listeningRow = JitterBench.row(trace: trace, implementation: "ours", knob: "listening", score: listeningPreset)
            listening?.score(
                &listeningRow, trace: trace, playout: listeningPreset, renderStartMilliseconds: firstArrival, context: context
            ) { trace.renderOurs($0, configuration: .listening) }
            context.record(listeningRow)
            var bestFixed: (milliseconds: Int, rating: Double, row: BenchmarkRow)?
            /// A fixed-delay row; with speech, also remembered when it is the best fixed delay yet.
            func recordFixed(_ milliseconds: Int, implementation: String) -> BenchmarkRow {
                var configuration = JitterBufferConfiguration()
                configuration.delayPolicy = .fixed(milliseconds: Double(milliseconds))
                let score = trace.scoreOurs(configuration: configuration)
                var row = JitterBench.row(trace: trace, implementation: implementation, knob: "delay=\(milliseconds) ms", score: score)
                let rating = listening?.score(
                    &row, trace: trace, playout: score, renderStartMilliseconds: firstArrival, context: context
                ) { trace.renderOurs($0, configuration: configuration) }
                if let rating, rating > bestFixed?.rating ?? -.infinity { bestFixed = (milliseconds, rating, row) }
                return row
            }
            for milliseconds in JitterBench.fixedDelays {
                context.record(recordFixed(milliseconds, implementation: "fixed"))
            }
            if listening != nil {
                // The hindsight optimum: the best fixed delay for the whole trace, knowing every
                // arrival. The E-model's estimate over a 10 ms grid picks the candidates; speech
                // through each decides among them and the fixed rows above.
                for milliseconds in JitterBench.hindsightCandidates(trace) where !JitterBench.fixedDelays.contains(milliseconds) {
                    _ = recordFixed(milliseconds, implementation: "fixed")
                }
                if var hindsight = bestFixed?.row {
                    hindsight.implementation = "hindsight"
                    context.record(hindsight)
                }
            }
            let file = folder.appendingPathComponent(trace.name + ".csv")
            try TraceCSV.write(trace.trace).write(to: file, atomically: true, encoding: .utf8)
            for peer in JitterPeer.all {
                for knob in peer.knobSettings {
                    do {
                        let playout = try peer.replay(
                            trace: file, frameMilliseconds: Double(trace.frameMilliseconds), clockRate: trace.clockRate, knob: knob
                        )
                        let setting = "\(playout.knob.name)=\(BenchmarkValue.number(playout.knob.value).displayText) \(playout.knob.unit)"
                        let score = trace.score(playout)
                        var row = JitterBench.row(
                            trace: trace, implementation: playout.implementation,
                            knob: knob == .default ? setting + " (default)" : setting, score: score
                        )
                        listening?.score(
                            &row, trace: trace, playout: score,
                            renderStartMilliseconds: playout.pulls.first?.timeMilliseconds ?? firstArrival, context: context
                        ) { trace.render(playout, speech: $0) }
                        context.record(row)
                    } catch {
                        context.recordFailure(trace.name, implementation: peer.name, error)
                    }
                }
            }
        }
    }
}

/// Measures one 10 ms pull (its share of inserts included) with G.711 and with Opus decoding.
private func measurePullCost(_ context: BenchmarkContext) throws {
    var pcmuEncoder = try G711Encoder(law: .muLaw)
    let pcmu = try PullBench<G711Decoder>.voiceFrames(sampleRate: 8000).map { frame in
        var payload = [UInt8](repeating: 0, count: 160)
        let written = try frame.withUnsafeBufferPointer { pcm in
            try payload.withUnsafeMutableBytes { try pcmuEncoder.encode(pcm, into: $0) }
        }
        return Array(payload[0..<written])
    }
    let pcmuBench = PullBench(decoder: G711Decoder(law: .muLaw), payloads: pcmu, samplesPerFrame: 160)
    _ = context.measure(
        BenchmarkCase(
            "pull-pcmu-10ms", countsAllocations: true,
            implementations: [
                .ours { iterations in blackHole(pcmuBench.run(pulls: iterations)) }
            ])
    )
    let opusEncoder = try OpusEncoder()
    let opus = try PullBench<OpusDecoder>.voiceFrames(sampleRate: 48_000).map { frame in
        var payload = [UInt8](repeating: 0, count: 1275)
        let written = try frame.withUnsafeBufferPointer { pcm in
            try payload.withUnsafeMutableBytes { try opusEncoder.encode(pcm, into: $0) }
        }
        return Array(payload[0..<written])
    }
    let opusBench = PullBench(decoder: try OpusDecoder(), payloads: opus, samplesPerFrame: 960)
    _ = context.measure(
        BenchmarkCase(
            "pull-opus-10ms", countsAllocations: true,
            implementations: [
                .ours { iterations in blackHole(opusBench.run(pulls: iterations)) }
            ])
    )
}

/// The rows of the jitter-buffer suite.
enum JitterBench {
    /// The fixed-delay baselines, in milliseconds above the first packet.
    static let fixedDelays = [20, 40, 60, 80, 100, 150, 200]

    /// The three fixed delays (of 0…400 ms in 10 ms steps) the E-model rates best on `trace`:
    /// R ≈ 93.2 − Ie,eff(effective loss; G.711 with concealment, Bpl 25.1) − Id(Ta), Ta the mean
    /// playout delay plus the frame. The hindsight row is the best of these and the fixed rows
    /// by the speech itself.
    static func hindsightCandidates(_ trace: JitterBenchTrace) -> [Int] {
        let rated = stride(from: 0, through: 400, by: 10).map { milliseconds -> (Int, Double) in
            var configuration = JitterBufferConfiguration()
            configuration.delayPolicy = .fixed(milliseconds: Double(milliseconds))
            let score = trace.scoreOurs(configuration: configuration)
            let loss = score.effectiveLossPercent
            let delay =
                (try? ConversationalRating.delayImpairment(
                    mouthToEarMilliseconds: score.meanDelayMilliseconds + Double(trace.frameMilliseconds))) ?? .infinity
            return (milliseconds, 93.2 - 95 * loss / (loss + 25.1) - delay)
        }
        return rated.sorted { $0.1 > $1.1 }.prefix(3).map(\.0)
    }

    /// One row: the median and p95 are the playout delay; DESIGN.md's jitter fields follow.
    static func row(trace: JitterBenchTrace, implementation: String, knob: String?, score: PlayoutScore) -> BenchmarkRow {
        var row = BenchmarkRow(
            suite: "jitter", caseName: trace.name, implementation: implementation, unit: "ms delay",
            median: score.p50DelayMilliseconds, p95: score.p95DelayMilliseconds
        )
        row.setField("trace", .string(trace.name))
        if let knob { row.setField("knob", .string(knob)) }
        row.setField("p50_delay_ms", .number(score.p50DelayMilliseconds))
        row.setField("p95_delay_ms", .number(score.p95DelayMilliseconds))
        row.setField("p99_delay_ms", .number(score.p99DelayMilliseconds))
        row.setField("network_loss_percent", .number(score.networkLossPercent))
        row.setField("late_loss_percent", .number(score.lateLossPercent))
        row.setField("effective_loss_percent", .number(score.effectiveLossPercent))
        row.setField("concealment_percent", .number(score.concealmentPercent))
        row.setField("interruptions", .integer(score.interruptions))
        row.setField("time_stretch_percent", .number(score.timeStretchPercent))
        row.setField("recovery_ms", .list(score.recoveryMilliseconds.map { $0.map(BenchmarkValue.number) ?? .number(.nan) }))
        if implementation == "ours" { row.setField("pull_us_median", .number(score.medianPullMicroseconds)) }
        return row
    }
}
