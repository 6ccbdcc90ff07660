import Codecs
import Foundation
import MediaSession
import RTP
import SecureTransport

/// `mediabench webrtc`: answers one browser call (issue 16).
struct WebRTCCommand: Command {
    static let listen = Option("listen", "127.0.0.1:PORT", .string, help: "Where the page and POST /offer are served (required).")
    static let input = Option("input", "IN.wav", .string, help: "What the engine says to the browser (default: a speech-like signal).")
    static let output = Option("output", "HEARD.wav", .string, help: "Where to write what the engine heard.")
    static let duration = Option(
        "duration", "SECONDS", .number(in: 1...86_400), help: "End the call this long after it connects (default: when the browser hangs up).")
    static let dtmf = Option("dtmf", "DIGITS", .string, help: "RFC 4733 digits to send one second into the call.")
    static let pageResults = Option(
        "page-results", "DIR", .string,
        help: "Wait for the page's /result post (autotest) and write its stats.json and heard.wav there.")
    static let format = Option<DataFormat>.dataFormat

    let name = "webrtc"
    let summary = "Serve a page a browser calls the engine from (WebRTC: ICE-lite, DTLS-SRTP, Opus)."
    let discussion = """
        Serves http://HOST:PORT/ (a call button, a level meter, the engine's quality line) and \
        POST /offer, which takes {"sdp": …, "type": "offer"} and returns the answer in the same \
        shape. One call is answered: the engine plays IN.wav, records what it hears to HEARD.wav \
        and, when the call ends, prints a summary (final state, codec, SRTP suite, DTLS role, RTP \
        and RTCP counts, round trip, DTMF received, mean MOS).
        """
    var arguments: [any ArgumentDeclaring] {
        [Self.listen, Self.input, Self.output, Self.duration, Self.dtmf, Self.pageResults, Self.format]
    }

    func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let listen = arguments[Self.listen], let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw UsageError("--listen HOST:PORT is required")
        }
        let format = AudioFormat(sampleRate: 48000, channels: 1)
        let duration = arguments[Self.duration]
        let digits = try CallSettings.dtmfDigits(arguments[Self.dtmf] ?? "")
        let speech =
            try arguments[Self.input].map { try CallCommand.speech(from: $0, in: format) }
            ?? SpeechLikeSignal.samples(sampleRate: format.sampleRate, seconds: duration ?? 60)
        let certificate: DTLSCertificate
        do {
            certificate = try DTLSCertificate.shared.get()
        } catch {
            throw CommandFailure("\(error)")
        }
        let configuration = MediaSessionConfiguration(codecs: [.opus, .pcmu, .pcma], echoCancellation: false, noiseSuppression: false)
        let host = WebRTCCallHost(
            configuration: configuration, certificate: certificate, speech: speech,
            recordingSamples: Int((duration ?? 3600) + 10) * format.sampleRate)
        let server = try LoopbackHTTPServer(host: String(listen[..<colon]), port: port, handler: host.handle)
        defer { server.stop() }
        console.writeError("mediabench webrtc: open http://\(listen[..<colon]):\(server.port)/ in a browser on this machine\n")
        let call = try Self.waitForCall(host)
        let connectedAt = Self.waitUntilConnectedOrEnded(call)
        var sentDigits = false
        while !call.state.isEnded {
            Thread.sleep(forTimeInterval: 0.05)
            guard let connectedAt else { continue }
            let elapsed = (ContinuousClock.now - connectedAt).seconds
            if !sentDigits, !digits.isEmpty, elapsed >= 1 {
                sentDigits = true
                try? call.session.sendDTMF(String(digits))
            }
            if let duration, elapsed >= duration { call.hangUp() }
        }
        if let directory = arguments[Self.pageResults] { try Self.savePageResults(of: host, to: directory, format: format) }
        if let output = arguments[Self.output] {
            try CallCommand.write(host.recorded, in: format, to: output)
        }
        let summary = Self.summary(of: call, host: host)
        switch arguments[Self.format] ?? .text {
        case .text: console.write(summary.text)
        case .json:
            let data = try JSONSerialization.data(withJSONObject: summary.dictionary, options: [.sortedKeys, .prettyPrinted])
            console.write(String(decoding: data, as: UTF8.self) + "\n")
        }
        return 0
    }

    /// The call, once an offer was answered.
    /// - Throws: ``CommandFailure`` when an offer was refused (the reason was sent back to it too).
    private static func waitForCall(_ host: WebRTCCallHost) throws -> WebRTCCall {
        while true {
            if let call = host.call { return call }
            if let refusal = host.refusal { throw CommandFailure("offer refused: \(refusal)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private static func waitUntilConnectedOrEnded(_ call: WebRTCCall) -> ContinuousClock.Instant? {
        while true {
            switch call.state {
            case .connected: return ContinuousClock.now
            case .ended: return nil
            case .connecting: Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    private static func summary(of call: WebRTCCall, host: WebRTCCallHost) -> WebRTCSummary {
        let media = call.negotiated.media
        let codec = media.sendCodec.map
        return WebRTCSummary(
            finalState: WebRTCSummary.text(of: call.state), codec: "\(codec.encodingName)/\(codec.clockRate)/\(codec.channels)",
            srtpSuite: call.srtpSuite?.sdesName, dtlsRole: call.dtlsRole.rawValue, statistics: call.session.statistics,
            dtmfReceived: host.dtmfReceived, meanOpinionScore: host.meanOpinionScore)
    }

    /// How long the page may take after the call's end to post its result (its recording and
    /// getStats): a few seconds on an idle machine, over 15 s seen with a browser starved of CPU.
    static let pageResultWaitSeconds = 45.0

    /// Waits up to ``pageResultWaitSeconds`` for the page's posted result and writes it out.
    private static func savePageResults(of host: WebRTCCallHost, to directory: String, format: AudioFormat) throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(Self.pageResultWaitSeconds))
        while host.pageResult == nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
        guard let result = host.pageResult else {
            throw CommandFailure("the page posted no /result within \(Int(Self.pageResultWaitSeconds)) s of the call's end")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let stats = result["stats"] {
            let data = try JSONSerialization.data(withJSONObject: stats, options: [.sortedKeys, .prettyPrinted])
            try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent("stats.json"))
        }
        if let wav = result["wav"] as? String, let data = Data(base64Encoded: wav) {
            try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent("heard.wav"))
        }
    }
}
