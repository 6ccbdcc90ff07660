import TestSupport

/// Independent checks of a call's wire capture: tshark reads it, and pylibsrtp decrypts every
/// RTP packet with the keys of the SDP it carries.
enum WireCaptureCheck {
    /// The RTP stream lines of `tshark -z rtp,streams` (the capture's SIP/SDP names the streams).
    static func tsharkStreams(_ path: String) throws -> [Substring] {
        let output = try ExternalTool.run(["tshark", "-n", "-q", "-r", path, "-z", "rtp,streams"]).standardOutput
        return output.split(separator: "\n").filter { $0.contains("127.0.0.1") }
    }

    /// `(decrypted, failed)`: the RTP packets pylibsrtp unprotected with the `a=crypto` key of
    /// the party announced at the port they leave the relay from, and those it refused
    /// (scripts/decrypt_capture.py).
    static func pylibsrtpDecryption(_ path: String) throws -> (decrypted: Int, failed: Int) {
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/decrypt_capture.py").path
        let output = try ExternalTool.run(["python3", script, path]).standardOutput
        let numbers = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard numbers.count == 2 else { return (0, -1) }
        return (numbers[0], numbers[1])
    }
}
