import Foundation

/// Linphone 5.1 (Debian `linphone-cli`) as a call peer: `linphonec -c RC` driven over stdin,
/// audio from and to WAV files (`soundcard use files`, `play`, `record`).
final class LinphonePeer: @unchecked Sendable {
    let sipPort = FreePort.next()
    let directory: String
    private let source: String
    private var process: PeerProcess?

    /// A peer whose audio comes from `source`; it answers calls itself when `autoAnswer`.
    /// Its jitter buffer is fixed at 100 ms: the adaptive one moved its playout by 10 ms in
    /// the middle of a word when the loaded machine delayed packets (seen: PESQ 3.49 for what
    /// it heard of a PCMU call whose ceiling, the codec alone, is 3.94; every other 250 ms of
    /// the sentence matched sample for sample).
    init(directory: String, source: String, codec: InteropCodec, srtp: InteropSRTP, muxAccepted: Bool) throws {
        self.directory = directory
        self.source = source
        let encryption =
            srtp == .plain
            ? "media_encryption=none\n"
            : "media_encryption=srtp\nmedia_encryption_mandatory=1\nsrtp_crypto_suites=\(srtp.rawValue)\n"
        let rtpPort = FreePort.next()
        let config = """
            [sip]
            sip_port=\(sipPort)
            use_ipv6=0
            contact=sip:linphone@127.0.0.1:\(sipPort)
            \(encryption)[rtp]
            audio_rtp_port=\(rtpPort)
            bind_address=127.0.0.1
            rtcp_mux=\(muxAccepted ? 1 : 0)
            audio_jitt_comp=100
            audio_adaptive_jitt_comp_enabled=0
            [sound]
            echo_cancellation=0
            [audio_codec_0]
            mime=PCMU
            rate=8000
            channels=1
            enabled=\(codec == .pcmu ? 1 : 0)
            [audio_codec_1]
            mime=opus
            rate=48000
            channels=2
            enabled=\(codec == .opus ? 1 : 0)

            """
        try config.write(toFile: directory + "/linphonerc", atomically: true, encoding: .utf8)
        // Without its database directory Linphone's core never starts (it answers 503, listens nowhere).
        try FileManager.default.createDirectory(atPath: directory + "/.local/share/linphone", withIntermediateDirectories: true)
    }

    /// Starts linphonec (auto-answering; killed after `seconds` at the latest) with file audio.
    func start(seconds: Double) throws {
        let process = try PeerProcess(
            ["linphonec", "-c", directory + "/linphonerc", "-a"], package: "linphone-cli", directory: directory, seconds: seconds, home: directory
        )
        self.process = process
        // The set-up lines go again when linphonec has not echoed them within 10 s: once, in a
        // clean-clone run, it printed nothing at all in 10 s (a slow start, or lines it never
        // read). The lines are idempotent; three tries bound the wait at 30 s.
        var started = false
        for _ in 0..<3 where !started {
            for line in ["soundcard use files", "play \(source)", "record \(directory)/heard.wav"] { process.send(line: line) }
            started = process.waitForLog("linphonec> record", seconds: 10)
        }
        guard started else { throw InteropFailure("linphonec did not start in 30 s; its output: '\(process.log.suffix(400))'") }
        Thread.sleep(forTimeInterval: 0.5)
    }

    /// Dials `uri`.
    func call(_ uri: String) { process?.send(line: "call \(uri)") }

    /// Sends each digit as DTMF, `gap` seconds apart.
    func sendDigits(_ digits: String, gap: Double = 0.4) async {
        for digit in digits {
            process?.send(line: String(digit))
            try? await Task.sleep(for: .seconds(gap))
        }
    }

    /// The digits Linphone received ("Receiving tone X").
    var digitsReceived: String {
        var digits = ""
        for line in log.split(separator: "\n") where line.contains("Receiving tone ") {
            if let range = line.range(of: "Receiving tone "), range.upperBound < line.endIndex { digits.append(line[range.upperBound]) }
        }
        return digits
    }

    /// Whether Linphone reported our hold ("has been paused by") within `seconds`.
    func sawHold(within seconds: Double) -> Bool {
        process?.waitForLog("has been paused by", seconds: seconds) ?? false
    }

    /// What Linphone recorded of what it heard.
    var heardPath: String? {
        FileManager.default.fileExists(atPath: directory + "/heard.wav") ? directory + "/heard.wav" : nil
    }

    /// The peer's log.
    var log: String { process?.log ?? "" }

    /// Quits linphonec.
    func stop() {
        process?.send(line: "terminate")
        process?.send(line: "quit")
        Thread.sleep(forTimeInterval: 0.5)
        process?.stop()
    }
}
