import BenchmarkSuites
import Codecs
import Foundation
import Jitter
import PlayoutLab
import QualityMetrics
import MediaSession
import NetworkModel

/// `mediabench simulate`: replays a network trace through a jitter buffer (issue 5).
struct SimulateCommand: Command {
    static let trace = Option(
        "trace", "FILE", .string, help: "Network trace to replay (trace CSV or rtpdump).")
    static let scenario = Option(
        "scenario", "NAME", .string, help: "Generate the trace from a named network scenario instead.")
    static let seed = Option(
        "seed", "N", .unsignedInteger, help: "Seed of the scenario's random generator (default: 1).")
    static let jitterBuffer = Option(
        "jitter-buffer", JitterBufferChoice.values, .string, help: "The buffer to replay through (default: ours).")
    static let clockRate = Option(
        "clock-rate", "HZ", .positiveInteger, help: "RTP clock rate of the trace (default: the codec's, 8000 or 48000).")
    static let frameDuration = Option(
        "frame-ms", "MS", .positiveInteger, help: "Audio per packet in milliseconds (default: 20).")
    static let format = Option.dataFormat
    static let log = Option("log", "FILE", .string, help: "Write every playout decision to FILE.")
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string,
        help: "Codec that carries --audio, set up as `call` sets it up (default: pcmu).")
    static let audio = Option(
        "audio", "IN.wav", .string, help: "Play this mono speech through the whole path (needs --output).")
    static let output = Option(
        "output", "OUT.wav", .string, help: "Where to write what a listener would hear (with --audio).")

    let name = "simulate"
    let summary = "Replay a network trace through a jitter buffer and report delay and loss."
    let discussion = """
        Give --trace or --scenario. Prints playout delay (mean, p50, p95, p99), network, late and \
        effective loss, concealment, interruptions, time-stretch, recovery after spikes and CPU \
        per pull, all computed from what was played. With --audio, the speech is encoded one \
        frame per packet with the codec's real encoder (Opus: 48 kHz, in-band FEC sized for \
        the trace's network loss as a call's loss reports would size it, as in \
        `mediabench call`; the speech may be 8, 12, 16, 24 or 48 kHz), decoded and concealed \
        by its real decoder, and what was played is written to --output at the speech's rate. \
        A scenario's trace is stamped at the codec's RTP clock. Every figure (and --log) is then \
        that of the speech's own replay, whose delay moves in the speech's pauses (without \
        --audio, of a synthetic voice pausing like read speech). For 8 or 16 kHz speech of 2 s or more it \
        also prints R_conv: PESQ (P.862.1 or P.862.2, PyPI `pesq`) over the whole trace in \
        speech-length windows, averaged, less G.107's delay impairment at the mean playout \
        delay plus the codec's.
        """
    var arguments: [any ArgumentDeclaring] {
        [
            Self.trace, Self.scenario, Self.seed, Self.jitterBuffer, Self.clockRate, Self.frameDuration,
            Self.format, Self.log, Self.codec, Self.audio, Self.output,
        ]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        var call = CallSettings()
        call.codec = try TranscodeCodec(parsing: arguments[Self.codec] ?? "pcmu")
        let codecClockRate = call.sdpCodec.map.clockRate
        let clockRate = arguments[Self.clockRate] ?? codecClockRate
        let speech = try Self.speechFiles(arguments)
        if speech != nil, clockRate != codecClockRate {
            throw UsageError("--clock-rate: \(call.codec) packets are stamped at \(codecClockRate) Hz, not \(clockRate) Hz")
        }
        let trace = try Self.trace(arguments, clockRate: clockRate)
        let configuration = try JitterBufferChoice.configuration(arguments[Self.jitterBuffer] ?? "ours")
        let heard = try speech.map {
            try Self.playSpeech(from: $0.input, to: $0.output, call: call, trace: trace, configuration: configuration)
        }
        let packets = trace.simulatedPackets
        // With speech, the playout is the speech's own (the buffer moves its delay in its
        // pauses); without, the synthetic voice's.
        let records =
            heard?.records
            ?? PlayoutSimulator(clockRate: trace.clockRate, samplesPerFrame: trace.samplesPerFrame, configuration: configuration)
            .play(packets)
        let score = PlayoutScore(
            trace: packets, records: records, clockRate: trace.clockRate, samplesPerFrame: trace.samplesPerFrame
        )
        if let log = arguments[Self.log] {
            var text = "time_ms,decision,rtp_ts,decoded_seq\n"
            for record in records {
                let decoded = record.decodedSequenceNumbers.map(String.init).joined(separator: " ")
                text += "\(record.timeMilliseconds),\(record.kind),\(record.rtpTimestamp),\(decoded)\n"
            }
            try DataOutput.write(text, toFile: log, console: console)
        }
        let rating = try heard.flatMap { try $0.conversationalRating(trace: trace, playout: score) }
        let buffer = arguments[Self.jitterBuffer] ?? "ours"
        switch arguments[Self.format] ?? .text {
        case .text: console.write(Self.text(score, rating: rating, trace: trace.name, buffer: buffer))
        case .json: console.write(try Self.json(score, rating: rating, trace: trace.name, buffer: buffer) + "\n")
        }
        return 0
    }

    /// The `--audio` and `--output` paths, which go together; nil when neither is given.
    private static func speechFiles(_ arguments: ParsedArguments) throws -> (input: String, output: String)? {
        switch (arguments[Self.audio], arguments[Self.output]) {
        case let (input?, output?): (input, output)
        case (nil, nil): nil
        default: throw UsageError("--audio and --output go together")
        }
    }

    /// The trace named by `--trace` or generated by `--scenario`, its timestamps at `clockRate`.
    private static func trace(_ arguments: ParsedArguments, clockRate: Int) throws -> JitterBenchTrace {
        let frame = arguments[Self.frameDuration] ?? 20
        switch (arguments[Self.trace], arguments[Self.scenario]) {
        case let (path?, nil):
            do {
                return try JitterBenchTrace.file(path, clockRate: clockRate, frameMilliseconds: frame)
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        case let (nil, name?):
            guard let scenario = NetworkScenario(rawValue: name) else {
                let known = NetworkScenario.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--scenario: unknown scenario '\(name)' (known: \(known))")
            }
            return .scenario(scenario, seed: arguments[Self.seed] ?? 1, clockRate: clockRate)
        default:
            throw UsageError("give either --trace FILE or --scenario NAME")
        }
    }

    /// Encodes the speech in `input` with the call's encoder for `call.codec`, one frame per
    /// packet of the trace (the speech repeats when the trace is longer), replays it through the
    /// buffer with the matching decoder and its concealment (and Opus FEC), and writes what was
    /// played to `output`, at the speech's rate; the replay's records come back with it.
    private static func playSpeech(
        from input: String, to output: String, call: CallSettings, trace: JitterBenchTrace,
        configuration: JitterBufferConfiguration
    ) throws -> HeardSpeech {
        let speech: WAVAudio
        do {
            speech = try WAVAudio(contentsOfFile: input)
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        let rates = speechRates(call.codec)
        guard speech.format.channels == 1, rates.contains(speech.format.sampleRate) else {
            let list = rates.sorted().map(String.init).joined(separator: ", ")
            throw UsageError("--audio: \(call.codec) takes mono speech at \(list) Hz, \(input) is \(speech.format)")
        }
        var codecs: (encoder: any AudioEncoder, decoder: any AudioDecoder)
        do {
            codecs = try call.makeCodecs(packetTimeMilliseconds: trace.frameMilliseconds)
        } catch {
            throw UsageError("--frame-ms: \(call.codec) cannot carry \(trace.frameMilliseconds) ms packets (\(error))")
        }
        // A call's encoder sizes its FEC from the loss the callee reports (LossAdaptation's
        // defaults); on a trace losing a steady share, it settles at that loss's target.
        let rows = trace.trace.packets
        let lossPercent = 100 * Double(rows.count { $0.arrivalMilliseconds == nil }) / Double(max(rows.count, 1))
        codecs.encoder.adaptForwardErrorCorrection(toLossPercent: LossAdaptation().expectedLossPercent(smoothedLossPercent: lossPercent))
        let packets: EncodedSpeech?
        do {
            let samples = try Transcoder.convert(speech.samples, from: speech.format, to: codecs.encoder.format)
            packets = try trace.encodedSpeech(samples, encoder: &codecs.encoder)
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        guard let packets else { throw UsageError("--audio: \(input) is shorter than one packet") }
        let played = trace.renderOurs(packets, decoder: codecs.decoder, configuration: configuration)
        do {
            let heard = try Transcoder.convert(played.audio, from: codecs.decoder.format, to: speech.format)
            try WAVAudio(format: speech.format, samples: heard).write(toFile: output)
            return HeardSpeech(
                speech: speech.samples, heard: heard, sampleRate: speech.format.sampleRate, records: played.records,
                codecDelayMilliseconds: Double(codecs.encoder.algorithmicDelaySamples) * 1000
                    / Double(max(codecs.encoder.format.sampleRate, 1))
            )
        } catch {
            throw CommandFailure("\(output): \(error)")
        }
    }

    /// The speech rates `--audio` takes with `codec`: G.711's 8 kHz, or a rate Opus encodes
    /// natively (the call's 48 kHz Opus then runs behind a resampler, as in `mediabench call`).
    private static func speechRates(_ codec: TranscodeCodec) -> Set<Int> {
        switch codec {
        case .g711: [8000]
        case .opus: TranscodeCodec.opusRates
        }
    }

    /// `ours` or `fixed:MS`.
    private static func text(_ score: PlayoutScore, rating: ConversationalRating?, trace: String, buffer: String) -> String {
        func format(_ value: Double) -> String { String(format: "%.2f", value) }
        let recovery = score.recoveryMilliseconds.map { $0.map { format($0) } ?? "never" }
        return """
            trace              \(trace)
            jitter buffer      \(buffer)
            playout delay      mean \(format(score.meanDelayMilliseconds)) ms, p50 \(format(score.p50DelayMilliseconds)) ms, \
            p95 \(format(score.p95DelayMilliseconds)) ms, p99 \(format(score.p99DelayMilliseconds)) ms
            loss               network \(format(score.networkLossPercent)) %, late \(format(score.lateLossPercent)) %, \
            effective \(format(score.effectiveLossPercent)) %
            concealment        \(format(score.concealmentPercent)) % in \(score.concealmentEvents) events, \
            \(score.interruptions) interruptions of 150 ms or more
            time-stretch       \(format(score.timeStretchPercent)) %
            recovery (spikes)  \(recovery.isEmpty ? "no spikes" : recovery.joined(separator: ", ") + " ms")
            CPU per pull       median \(format(score.medianPullMicroseconds)) µs, p99 \(format(score.p99PullMicroseconds)) µs

            """
                + (rating.map { rating in
                    """
                    conversation       R_conv \(format(rating.rFactor)) (MOS-LQO \(String(format: "%.3f", rating.listeningMOS)) \
                    over the whole trace, mouth-to-ear \(format(rating.mouthToEarMilliseconds)) ms)

                    """
                } ?? "")
    }

    private static func json(_ score: PlayoutScore, rating: ConversationalRating?, trace: String, buffer: String) throws -> String {
        var object: [String: Any] = [
            "trace": trace,
            "jitter_buffer": buffer,
            "mean_delay_ms": score.meanDelayMilliseconds,
            "p50_delay_ms": score.p50DelayMilliseconds,
            "p95_delay_ms": score.p95DelayMilliseconds,
            "p99_delay_ms": score.p99DelayMilliseconds,
            "network_loss_percent": score.networkLossPercent,
            "late_loss_percent": score.lateLossPercent,
            "effective_loss_percent": score.effectiveLossPercent,
            "concealment_percent": score.concealmentPercent,
            "concealment_events": score.concealmentEvents,
            "interruptions": score.interruptions,
            "time_stretch_percent": score.timeStretchPercent,
            "recovery_ms": score.recoveryMilliseconds.map { $0.map { $0 as Any } ?? NSNull() },
            "pull_us_median": score.medianPullMicroseconds,
            "pull_us_p99": score.p99PullMicroseconds,
        ]
        if let rating {
            object["pesq"] = rating.listeningMOS
            object["mouth_to_ear_ms"] = rating.mouthToEarMilliseconds
            object["r_conv"] = rating.rFactor
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }
}
