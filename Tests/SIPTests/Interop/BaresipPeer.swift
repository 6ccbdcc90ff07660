import Foundation
import Glibc

/// baresip 1.0 (Debian `baresip-core`) as a call peer: configured in its own directory, audio
/// from a WAV file (aufile) and what it heard dumped by sndfile, driven over ctrl_tcp.
final class BaresipPeer: @unchecked Sendable {
    let sipPort = FreePort.next()
    let directory: String
    private let controlPort = FreePort.next(Int32(SOCK_STREAM.rawValue))
    private var process: PeerProcess?
    private var control: Int32 = -1
    private let lock = NSLock()
    private var received = ""

    /// A peer whose audio comes from `source` (8 kHz mono for PCMU, 48 kHz for Opus).
    init(directory: String, source: String, codec: InteropCodec, srtp: InteropSRTP, muxAccepted: Bool) throws {
        self.directory = directory
        let config = """
            poll_method epoll
            sip_listen 127.0.0.1:\(sipPort)
            net_interface 127.0.0.1
            audio_source aufile,\(source)
            audio_alert aufile,\(source)
            audio_player alsa,null
            rtcp_mux \(muxAccepted ? "yes" : "no")
            module_path /usr/lib/baresip/modules
            module g711.so
            module opus.so
            module aufile.so
            module srtp.so
            module sndfile.so
            snd_path \(directory)
            module_app account.so
            module_app menu.so
            module_app ctrl_tcp.so
            ctrl_tcp_listen 127.0.0.1:\(controlPort)

            """
        let mediaenc = srtp == .plain ? "" : ";mediaenc=srtp-mand"
        let account = "<sip:baresip@127.0.0.1:\(sipPort)>;regint=0;answermode=auto;audio_codecs=\(codec.baresipName)\(mediaenc)\n"
        try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        try account.write(toFile: directory + "/accounts", atomically: true, encoding: .utf8)
    }

    /// Starts baresip (killed after `seconds` at the latest) and connects to its ctrl_tcp.
    func start(seconds: Double) throws {
        let process = try PeerProcess(["baresip", "-f", directory], package: "baresip-core", directory: directory, seconds: seconds)
        self.process = process
        guard process.waitForLog("baresip is ready", seconds: 10) else { throw InteropFailure("baresip did not start: \(process.log.suffix(400))") }
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while control < 0, ContinuousClock.now < deadline {
            control = Self.connect(port: controlPort)
            if control < 0 { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard control >= 0 else { throw InteropFailure("baresip ctrl_tcp did not accept on \(controlPort)") }
        let descriptor = control
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                lock.withLock { received += text }
            }
        }
    }

    /// Sends a ctrl_tcp command (`dial`, `hangup`, `hold`, `resume`, `sndcode`).
    func command(_ name: String, _ parameters: String = "") {
        let json = "{\"command\":\"\(name)\",\"params\":\"\(parameters)\",\"token\":\"t\"}"
        let message = Array("\(json.utf8.count):\(json),".utf8)
        _ = message.withUnsafeBytes { send(control, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends each digit as DTMF, `gap` seconds apart.
    func sendDigits(_ digits: String, gap: Double = 0.4) async {
        for digit in digits {
            command("sndcode", String(digit))
            try? await Task.sleep(for: .seconds(gap))
        }
    }

    /// The ctrl_tcp events so far, raw.
    var events: String { lock.withLock { received } }

    /// The digits baresip received (its log's "received event: 'X' (end=1)" lines).
    var digitsReceived: String {
        let log = process?.log ?? ""
        var digits = ""
        for line in log.split(separator: "\n") where line.contains("received event: '") && line.contains("(end=1)") {
            if let quote = line.firstIndex(of: "'") { digits.append(line[line.index(after: quote)]) }
        }
        return digits
    }

    /// Whether baresip reported receiving our RTCP (CALL_RTCP events).
    var rtcpReceived: Bool { events.contains("\"CALL_RTCP\"") }

    /// The round trips baresip reported, in milliseconds (its CALL_RTCP "rtt", in µs... as printed).
    var reportedRoundTrips: [Double] {
        events.components(separatedBy: "\"rtt\":").dropFirst().compactMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
    }

    /// The WAV baresip's sndfile wrote of what it heard (decoded), if any.
    var heardPath: String? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasPrefix("dump-") && $0.hasSuffix("-dec.wav") }.sorted().last.map { directory + "/" + $0 }
    }

    /// The peer's log.
    var log: String { process?.log ?? "" }

    /// Quits baresip.
    func stop() {
        if control >= 0 {
            command("quit")
            Thread.sleep(forTimeInterval: 0.3)
            close(control)
            control = -1
        }
        process?.stop()
    }

    private static func connect(port: UInt16) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if status != 0 {
            close(descriptor)
            return -1
        }
        return descriptor
    }
}
