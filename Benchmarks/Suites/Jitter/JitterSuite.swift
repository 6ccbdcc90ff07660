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
            ? nil : JitterListeningTest(speechFiles: context.options.speechFiles, folder: folder, jobs: context.options.jobs)
        for trace in traces {
            try benchTrace(trace, listening: listening, folder: folder, context: context)
        }
    }
}

/// Replays `trace` through ours, the listening preset, the fixed delays and every peer at every
/// knob, and records a row for each (with speech, the hindsight row too). With speech, every
/// row's playout is rendered first and all of them are scored by one run of the scorer.
private func benchTrace(_ trace: JitterBenchTrace, listening: JitterListeningTest?, folder: URL, context: BenchmarkContext) throws {
    let firstArrival = trace.simulatedPackets.compactMap(\.arrivalMilliseconds).min() ?? 0
    var rows = listening?.rows(for: trace)
    /// Each row in order: whether it is recorded (a hindsight candidate alone is not), and its
    /// fixed delay for a fixed buffer; without speech, the row itself.
    var entries: [(row: BenchmarkRow, recorded: Bool, fixedMilliseconds: Int?)] = []
    func add(
        _ row: BenchmarkRow, recorded: Bool = true, fixedMilliseconds: Int? = nil, renderStart: Double,
        render: (SpeechPackets) -> HeardPlayout
    ) {
        entries.append((row, recorded, fixedMilliseconds))
        rows?.add(row, renderStartMilliseconds: renderStart, context: context, render: render)
    }
    add(JitterBench.row(trace: trace, implementation: "ours", knob: nil, score: trace.scoreOurs()), renderStart: firstArrival) {
        trace.renderOurs($0)
    }
    add(
        JitterBench.row(trace: trace, implementation: "ours", knob: "listening", score: trace.scoreOurs(configuration: .listening)),
        renderStart: firstArrival
    ) { trace.renderOurs($0, configuration: .listening) }
    /// A fixed-delay row.
    func addFixed(_ milliseconds: Int, recorded: Bool) {
        var configuration = JitterBufferConfiguration()
        configuration.delayPolicy = .fixed(milliseconds: Double(milliseconds))
        let score = trace.scoreOurs(configuration: configuration)
        let row = JitterBench.row(trace: trace, implementation: "fixed", knob: "delay=\(milliseconds) ms", score: score)
        add(row, recorded: recorded, fixedMilliseconds: milliseconds, renderStart: firstArrival) {
            trace.renderOurs($0, configuration: configuration)
        }
    }
    for milliseconds in JitterBench.fixedDelays {
        addFixed(milliseconds, recorded: true)
    }
    if listening != nil {
        // The hindsight optimum: the best fixed delay for the whole trace, knowing every
        // arrival. The E-model's estimate over a 10 ms grid picks the candidates; speech
        // through each decides among them and the fixed rows above.
        for milliseconds in JitterBench.hindsightCandidates(trace) where !JitterBench.fixedDelays.contains(milliseconds) {
            addFixed(milliseconds, recorded: false)
        }
    }
    let hindsightPlace = entries.count
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
                let row = JitterBench.row(
                    trace: trace, implementation: playout.implementation, knob: knob == .default ? setting + " (default)" : setting,
                    score: score
                )
                add(row, renderStart: playout.pulls.first?.timeMilliseconds ?? firstArrival) {
                    trace.render(playout, speech: $0)
                }
            } catch {
                context.recordFailure(trace.name, implementation: peer.name, error)
            }
        }
    }
    guard var scored = rows else {
        for entry in entries where entry.recorded { context.record(entry.row) }
        return
    }
    let ratings = scored.score(context: context)
    var bestFixed: (rating: Double, row: BenchmarkRow)?
    for (index, entry) in entries.enumerated() {
        let row = scored.rows[index]
        if entry.fixedMilliseconds != nil, let rating = ratings[index], rating > bestFixed?.rating ?? -.infinity {
            bestFixed = (rating, row)
        }
        if index == hindsightPlace, var hindsight = bestFixed?.row {
            hindsight.implementation = "hindsight"
            context.record(hindsight)
        }
        if entry.recorded { context.record(row) }
    }
    if entries.count == hindsightPlace, var hindsight = bestFixed?.row {
        hindsight.implementation = "hindsight"
        context.record(hindsight)
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
