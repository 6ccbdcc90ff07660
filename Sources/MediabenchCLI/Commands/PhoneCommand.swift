import Codecs
import Foundation
import MediaSession
import SIP

/// `mediabench phone dial|answer`: a SIP softphone over the engine (issue 12).
struct PhoneCommand: Command {
    static let action = Positional("ACTION", .choice(["dial", "answer"]), help: "dial SIP-URI, or answer incoming calls.")
    static let target = Positional("SIP-URI", .string, arity: .optional, help: "Whom to dial: sip:user@ADDR[:PORT] (dial only).")
    static let listen = Option(
        "listen", "ADDR:PORT", .string, help: "SIP address to bind (answer: required; dial: default 127.0.0.1, any port).")
    static let from = Option("from", "URI", .string, help: "Our address (its user part names us; default sip:mediabench@ADDR).")
    static let user = Option("user", "U", .string, help: "User name for digest authentication (401/407).")
    static let password = Option("password", "P", .string, help: "Password for digest authentication.")
    static let register = Option(
        "register", "REGISTRAR-URI", .string, help: "Register with this registrar (sip:ADDR:PORT) before dialling or answering.")
    static let calls = Option("calls", "N", .positiveInteger, help: "Answer this many calls, one after another (default: 1).")
    static let codec = Option(
        "codec", "pcmu|pcma|opus[:BITRATE]", .string, repeats: true,
        help: "Codec to offer or accept; repeat for several, in order of preference (default: opus, pcmu, pcma).")
    static let srtp = Option(
        "srtp", "none|optional|SUITE", .string, repeats: true,
        help: "SRTP: none (default), optional (best effort: RTP/AVP with a=crypto, SRTP when the peer has a key too), or suites to require.")
    static let rtcpMux = Option(
        "rtcp-mux", "offer|require|no", .choice(PhoneSettings.MuxPolicy.allCases.map(\.rawValue)),
        help: "Offer RTP/RTCP on one port and accept a decline (default), require it, or never use it.")
    static let input = Option("input", "IN.wav", .string, help: "What we say (any rate, mixed to mono; default: silence).")
    static let output = Option("output", "HEARD.wav", .string, help: "Write what we heard (the codec's rate, mono).")
    static let duration = Option(
        "duration", "S", .number(in: 1...86_400), help: "Seconds to stay connected before hanging up (default: 30).")
    static let dtmf = Option("dtmf", "DIGITS", .string, help: "RFC 4733 digits to send once connected, after IN.wav has been said (at least 1 s in).")
    static let holdAt = Option("hold-at", "S", .nonNegativeNumber, help: "Put the call on hold S seconds after it connects.")
    static let resumeAt = Option("resume-at", "S", .nonNegativeNumber, help: "Resume the held call S seconds after it connects.")
    static let format = Option.dataFormat
    static let capture = Option(
        "capture", "FILE.pcap", .string, help: "Record the call's SIP, RTP and RTCP on the loopback to a pcap file (needs dumpcap).")

    let name = "phone"
    let summary = "Dial or answer a SIP call with a real softphone (baresip, Linphone, a PBX)."
    let discussion = """
        A SIP user agent over UDP (RFC 3261: INVITE, ACK, BYE, CANCEL, re-INVITE hold/resume, \
        OPTIONS, REGISTER, digest MD5 and SHA-256) around one media session per call. Prints \
        each state change (calling, ringing, connected, held, remotely-held, ended) and a quality \
        line each second; with --format json, one JSON object per call at the end (final_state, \
        end_reason, states, remote_user_agent, codec, srtp_suite, rtp_sent, rtp_received, \
        rtcp_received, rtt_ms, dtmf_received, mos_mean, heard_wav). The audio is IN.wav (or \
        silence) and HEARD.wav, without echo cancelling or denoising. Only literal IP addresses \
        are dialled. The jitter buffer is the conversational default unless --jitter-buffer says otherwise. Exit status 0 when every call connected, 1 when one failed or nobody \
        answered, 2 for a bad flag or URI; a call never lasts past --duration + 8 s.
        """
    var arguments: [any ArgumentDeclaring] {
        [
            Self.action, Self.target, Self.listen, Self.from, Self.user, Self.password, Self.register, Self.calls,
            Self.codec, Self.srtp, Self.rtcpMux, Self.input, Self.output, Self.duration, Self.dtmf, Self.holdAt,
            Self.resumeAt, Self.capture, CallCommand.jitterBuffer, Self.format,
        ]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let dialling = arguments[Self.action] == "dial"
        let settings = try Self.settings(arguments, dialling: dialling)
        let target = try arguments[Self.target].map { text throws(UsageError) in try PhoneSettings.dialableURI(text, flag: "SIP-URI") }
        if dialling, target == nil { throw UsageError("dial needs a SIP-URI") }
        if !dialling, target != nil { throw UsageError("answer takes no SIP-URI (it listens on --listen)") }
        let capture = try settings.capturePath.map { path in try LoopbackCapture(path: path) }
        defer { capture?.stop() }
        let agent: SIPUserAgent
        do {
            agent = try SIPUserAgent(configuration: settings.agent)
        } catch {
            throw CommandFailure("cannot bind \(settings.listen): \(error)")
        }
        defer { agent.shutdown() }
        if !settings.json { console.write("sip: listening on \(agent.localAddress)\n") }
        let outcomes = try Self.blocking { () async throws -> [PhoneOutcome] in
            if let registrar = settings.registrar {
                let state = try await agent.register(with: registrar)
                guard case .registered = state else { throw CommandFailure("registration with \(registrar): \(state)") }
                if !settings.json { console.write("registered with \(registrar): \(state)\n") }
            }
            let runner = PhoneCallRunner(settings: settings, console: console)
            if let target {
                return [try await Self.dial(target, agent: agent, settings: settings, runner: runner)]
            }
            return try await Self.answer(agent: agent, settings: settings, runner: runner, console: console)
        }
        for outcome in outcomes {
            console.write(settings.json ? try outcome.json() + "\n" : outcome.summary)
        }
        guard outcomes.allSatisfy(\.connected) else {
            throw CommandFailure("call \(outcomes.last?.endReason ?? "failed") before it connected")
        }
        return ExitStatus.success
    }

    private static func dial(_ target: SIPURI, agent: SIPUserAgent, settings: PhoneSettings, runner: PhoneCallRunner) async throws -> PhoneOutcome {
        let audio = settings.audioEndpoint()
        let call = try agent.dial(target.description, media: settings.media(audio: audio))
        var outcome = await runner.run(call, audio: audio)
        try settings.writeHeard(audio, into: &outcome)
        return outcome
    }

    private static func answer(agent: SIPUserAgent, settings: PhoneSettings, runner: PhoneCallRunner, console: Console) async throws -> [PhoneOutcome] {
        var outcomes: [PhoneOutcome] = []
        let incoming = IncomingCalls(agent.incomingCalls)
        for index in 1...settings.calls {
            guard let call = await incoming.next(within: settings.durationSeconds + 10) else {
                throw CommandFailure("no call arrived within \(Int(settings.durationSeconds + 10)) s")
            }
            if !settings.json { console.write("incoming call \(index) from \(call.remoteParty)\n") }
            let audio = settings.audioEndpoint()
            try call.answer(media: settings.media(audio: audio))
            var outcome = await runner.run(call, audio: audio)
            try settings.writeHeard(audio, into: &outcome, suffix: settings.calls > 1 ? "-\(index)" : "")
            outcomes.append(outcome)
        }
        return outcomes
    }

    private static func settings(_ arguments: ParsedArguments, dialling: Bool) throws -> PhoneSettings {
        var settings = PhoneSettings()
        if let listen = arguments[Self.listen] {
            settings.listen = try PhoneSettings.address(listen, flag: "--listen")
        } else if !dialling {
            throw UsageError("answer needs --listen ADDR:PORT")
        }
        settings.from = try arguments[Self.from].map { text throws(UsageError) in
            guard let uri = try? SIPURI(parsing: text) else { throw UsageError("--from: expected a sip: URI, got '\(text)'") }
            return uri
        }
        switch (arguments[Self.user], arguments[Self.password]) {
        case let (user?, password?): settings.credentials = DigestCredentials(username: user, password: password)
        case (nil, nil): break
        default: throw UsageError("--user and --password go together")
        }
        settings.registrar = try arguments[Self.register].map { text throws(UsageError) in
            try PhoneSettings.dialableURI(text, flag: "--register").description
        }
        settings.calls = arguments[Self.calls] ?? 1
        let codecs = arguments.all(Self.codec)
        if !codecs.isEmpty { settings.codecs = try codecs.map(PhoneSettings.codec) }
        settings.srtp = try PhoneSettings.srtpPolicy(arguments.all(Self.srtp))
        settings.mux = PhoneSettings.MuxPolicy(rawValue: arguments[Self.rtcpMux] ?? "offer") ?? .offer
        if let path = arguments[Self.input] {
            do {
                let wav = try WAVAudio(contentsOfFile: path)
                settings.input = (wav.samples, wav.format)
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        }
        settings.outputPath = arguments[Self.output]
        settings.durationSeconds = arguments[Self.duration] ?? 30
        settings.dtmf = try CallSettings.dtmfDigits(arguments[Self.dtmf] ?? "")
        settings.holdAtSeconds = arguments[Self.holdAt]
        settings.resumeAtSeconds = arguments[Self.resumeAt]
        if settings.resumeAtSeconds != nil, settings.holdAtSeconds == nil { throw UsageError("--resume-at needs --hold-at") }
        if let hold = settings.holdAtSeconds, let resume = settings.resumeAtSeconds, resume <= hold {
            throw UsageError("--resume-at must come after --hold-at")
        }
        settings.capturePath = arguments[Self.capture]
        // A phone call is a conversation: the conversational default unless asked otherwise.
        settings.jitterBuffer = try JitterBufferChoice.configuration(arguments[CallCommand.jitterBuffer] ?? "ours")
        settings.json = (arguments[Self.format] ?? .text) == .json
        return settings
    }

    /// Runs `body` to completion on the cooperative pool, blocking this (non-pool) thread.
    private static func blocking<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Result>()
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.take()
    }
}

/// A value handed from a task to the thread waiting for it (written once, read after a semaphore).
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var result: Result<Value, any Error>?

    func take() throws -> Value {
        guard let result else { throw CommandFailure("internal: no result") }
        return try result.get()
    }
}

/// Incoming calls queued as they ring, taken one at a time with a deadline.
private final class IncomingCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [Call] = []

    /// Starts queueing the calls of `stream`.
    init(_ stream: AsyncStream<Call>) {
        Task {
            for await call in stream { self.lock.withLock { self.queue.append(call) } }
        }
    }

    /// The next call, or nil when none rings within `seconds`.
    func next(within seconds: Double) async -> Call? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if let call = lock.withLock({ queue.isEmpty ? nil : queue.removeFirst() }) { return call }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}

extension PhoneSettings {
    /// A fresh audio endpoint for one call.
    func audioEndpoint() -> PhoneAudioEndpoint {
        PhoneAudioEndpoint(
            input: input?.samples ?? [], format: input?.format ?? AudioFormat(sampleRate: 8000, channels: 1),
            recordingSeconds: durationSeconds + 10
        )
    }

    /// Writes what was heard to `--output` (with `suffix` before the extension) and notes it in `outcome`.
    func writeHeard(_ audio: PhoneAudioEndpoint, into outcome: inout PhoneOutcome, suffix: String = "") throws {
        guard let outputPath, let heard = audio.heard else { return }
        let path = suffix.isEmpty ? outputPath : (outputPath as NSString).deletingPathExtension + suffix + ".wav"
        try CallCommand.write(heard.samples, in: heard.format, to: path)
        outcome.heardPath = path
    }
}
