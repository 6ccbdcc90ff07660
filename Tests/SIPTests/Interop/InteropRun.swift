import Codecs
import Foundation
import Jitter
import MediaSession
import SIP

/// What one interop call showed, one row of the table.
struct InteropResult: Sendable {
    let testCase: InteropCase
    var connected = false
    var rtcpFromPeer = 0
    var engineRoundTripMilliseconds: Double?
    var peerReportedRTCP: Bool?
    var dtmfToPeer = ""
    var dtmfFromPeer = ""
    var holdSeenByPeer = false
    var resumeSeenByPeer = false
    var pesqEngineHeard: Double?
    var pesqPeerHeard: Double?
    var note = ""

    static let header =
        "| peer | engine | codec | SRTP | mux | connected | RTCP peer→engine | RTCP engine→peer | RTT ms | DTMF →peer | DTMF ←peer | hold/resume at peer | PESQ engine heard | PESQ peer heard | note |"

    /// What the engine's jitter buffer did in the call, for the row's note: its delay and
    /// target at the end, packets late, audio concealed, stretched in and out (a low PESQ of
    /// what the engine heard reads against these).
    static func playoutNote(_ playout: JitterBufferStatistics, sampleRate: Int) -> String {
        func milliseconds(_ samples: Int) -> Int { samples * 1000 / max(sampleRate, 1) }
        return String(
            format: "engine buffer: delay %.0f/%.0f ms, late %d, concealed %d ms, stretched +%d/−%d ms",
            playout.currentDelayMilliseconds, playout.targetDelayMilliseconds, playout.latePackets, milliseconds(playout.concealedSamples),
            milliseconds(playout.insertedSamples), milliseconds(playout.removedSamples))
    }

    /// One Markdown table row.
    var row: String {
        func score(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        let reported = peerReportedRTCP.map { $0 ? "yes" : "no" } ?? (engineRoundTripMilliseconds != nil ? "yes (RR→RTT)" : "no")
        return "| \(testCase.peer.rawValue) | \(testCase.engineCalls ? "caller" : "callee") | \(testCase.codec.rawValue) | \(testCase.srtp.rawValue) | "
            + "\(testCase.muxAccepted ? "accepted" : "declined") | \(connected ? "yes" : "NO") | \(rtcpFromPeer) | \(reported) | "
            + "\(engineRoundTripMilliseconds.map { String(format: "%.2f", $0) } ?? "–") | \(dtmfToPeer) | \(dtmfFromPeer) | "
            + "\(holdSeenByPeer ? "hold" : "no hold")/\(resumeSeenByPeer ? "resume" : "no resume") | \(score(pesqEngineHeard)) | \(score(pesqPeerHeard)) | \(note) |"
    }
}

/// Runs one interop call between our user agent (in process) and a real softphone.
enum InteropRun {
    static let engineDigits = "1357"
    static let peerDigits = "2468"

    static func run(_ testCase: InteropCase, speech: InteropSpeech) async throws -> InteropResult {
        let directory = try makeDirectory(testCase)
        var result = InteropResult(testCase: testCase)
        let rate = testCase.codec.sampleRate
        let agent = try SIPUserAgent(configuration: SIPUserAgentConfiguration(userName: "engine"))
        defer { agent.shutdown() }
        let audio = FormatRecordingEndpoint(source: try speech.samples("engine", rate), recordingCapacitySamples: rate * 80)
        let media = MediaSessionConfiguration(
            codecs: [testCase.codec.sdp], srtpSuites: testCase.srtp.suites, rtcpMux: true, jitterBuffer: JitterBufferConfiguration(), echoCancellation: false,
            noiseSuppression: false, audio: .endpoint(audio), rtcpMinimumIntervalSeconds: 1
        )
        let baresip: BaresipPeer?
        let linphone: LinphonePeer?
        switch testCase.peer {
        case .baresip:
            let source = speech.paddedPath("peer", rate, stereo: testCase.codec == .opus)
            baresip = try BaresipPeer(directory: directory, source: source, codec: testCase.codec, srtp: testCase.srtp, muxAccepted: testCase.muxAccepted)
            linphone = nil
            try baresip?.start(seconds: 45)
        case .linphone:
            linphone = try LinphonePeer(
                directory: directory, source: speech.paddedPath("peer", rate), codec: testCase.codec, srtp: testCase.srtp, muxAccepted: testCase.muxAccepted)
            baresip = nil
            try linphone?.start(seconds: 45)
        }
        defer { baresip?.stop(); linphone?.stop() }
        let peerPort = baresip?.sipPort ?? linphone?.sipPort ?? 0
        let call: Call
        if testCase.engineCalls {
            call = try agent.dial("sip:\(testCase.peer.rawValue)@127.0.0.1:\(peerPort)", media: media)
        } else {
            let engineURI = "sip:engine@127.0.0.1:\(agent.localAddress.port)"
            baresip?.command("dial", engineURI)
            linphone?.call(engineURI)
            guard let incoming = await nextCall(agent, within: 10) else {
                result.note = "no INVITE from the peer"
                return result
            }
            try incoming.answer(media: media)
            call = incoming
        }
        let digits = DigitCollector(call)
        guard await wait(10, until: { call.state == .connected }) else {
            result.note = "ended \(call.state): \(call.stateHistory.last.map(String.init(describing:)) ?? "")"
            if case .ended(let reason) = call.state { result.note = "ended: \(reason)" }
            return result
        }
        result.connected = true
        try? await Task.sleep(for: .seconds(speech.speakingSeconds))
        try? call.sendDTMF(engineDigits)
        try? await Task.sleep(for: .seconds(1))
        await baresip?.sendDigits(peerDigits)
        await linphone?.sendDigits(peerDigits)
        try? await Task.sleep(for: .seconds(1))
        call.hold()
        _ = await wait(3, until: { call.state == .held })
        // Linphone says so in its log; baresip says so in its answer (recvonly or inactive).
        result.holdSeenByPeer = linphone?.sawHold(within: 3) ?? call.negotiatedAudio.map { !$0.direction.receives } ?? false
        if call.state != .held { result.note += "not held (\(call.state)); " }
        try? await Task.sleep(for: .seconds(1))
        call.resume()
        _ = await wait(3, until: { call.state == .connected })
        result.resumeSeenByPeer = call.state == .connected && call.negotiatedAudio?.direction == .sendReceive
        // The round trip needs a report from the peer that echoes one of our sender reports;
        // peers report every few seconds (baresip about 5 s), so wait for it instead of a fixed time.
        try? await Task.sleep(for: .seconds(2))
        _ = await wait(10, until: { call.session?.statistics.roundTripMilliseconds != nil })
        let statistics = call.session?.statistics ?? MediaSessionStatistics()
        let playout = call.session?.playoutStatistics ?? JitterBufferStatistics()
        result.rtcpFromPeer = statistics.rtcpPacketsReceived
        result.engineRoundTripMilliseconds = statistics.roundTripMilliseconds
        call.hangUp()
        _ = await wait(3, until: { call.state.isEnded })
        result.dtmfFromPeer = digits.text
        result.dtmfToPeer = baresip?.digitsReceived ?? linphone?.digitsReceived ?? ""
        result.peerReportedRTCP = baresip.map { $0.rtcpReceived }
        baresip?.stop()
        linphone?.stop()
        let engineHeard = directory + "/engine-heard.wav"
        try InteropSpeech.write(audio.recorded, format: audio.playbackFormat, to: engineHeard)
        result.pesqEngineHeard = try? speech.pesq(heard: engineHeard, against: "peer")
        if let peerHeard = baresip?.heardPath ?? linphone?.heardPath {
            // baresip's sndfile labels its Opus dump two-channel but writes one channel.
            let mislabelled = testCase.peer == .baresip && testCase.codec == .opus
            result.pesqPeerHeard = try? speech.pesq(heard: peerHeard, against: "engine", inputOptions: mislabelled ? ["-c", "1"] : [])
        }
        if statistics.authenticationFailures > 0 { result.note += "SRTP auth failures \(statistics.authenticationFailures); " }
        result.note += InteropResult.playoutNote(playout, sampleRate: rate)
        return result
    }

    static func wait(_ seconds: Double, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    static func nextCall(_ agent: SIPUserAgent, within seconds: Double) async -> Call? {
        let box = CallBox()
        let waiting = Task {
            for await call in agent.incomingCalls {
                box.set(call)
                break
            }
        }
        _ = await wait(seconds) { box.call != nil }
        waiting.cancel()
        return box.call
    }

    static func makeDirectory(_ testCase: InteropCase) throws -> String {
        let path = NSTemporaryDirectory() + "interop-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The first incoming call, handed from the waiting task.
final class CallBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Call?
    func set(_ call: Call) { lock.withLock { value = call } }
    var call: Call? { lock.withLock { value } }
}

/// A memory endpoint that also remembers the playback format the session opened it with.
final class FormatRecordingEndpoint: AudioEndpoint, @unchecked Sendable {
    private let memory: MemoryAudioEndpoint
    private let lock = NSLock()
    private var format = AudioFormat(sampleRate: 8000, channels: 1)

    init(source: [Int16], recordingCapacitySamples: Int) {
        memory = MemoryAudioEndpoint(source: source, recordingCapacitySamples: recordingCapacitySamples)
    }

    var recorded: [Int16] { memory.recorded }
    var playbackFormat: AudioFormat { lock.withLock { format } }

    func open(capture: AudioFormat, playback: AudioFormat) throws(MediaSessionError) {
        lock.withLock { format = playback }
        try memory.open(capture: capture, playback: playback)
    }

    func read(into pcm: UnsafeMutableBufferPointer<Int16>) throws(MediaSessionError) { try memory.read(into: pcm) }
    func write(_ pcm: UnsafeBufferPointer<Int16>) throws(MediaSessionError) { try memory.write(pcm) }
    func close() {}
}
