import Capture
import Foundation
import MediaSession

/// Records datagrams as Ethernet/IPv4/UDP frames in a pcap file: what the relay put on the
/// wire, with the time it left, and the call's signalling.
///
/// `Sendable`: the writer and the frame buffer are only touched with `lock` held.
final class WireCapture: @unchecked Sendable {
    /// The port the synthetic SIP messages of ``recordSignalling(offer:answer:)`` use.
    static let sipPort: UInt16 = 5060

    private let lock = NSLock()
    private var writer: PcapWriter?
    private var frame: [UInt8] = []
    /// The file being written.
    let path: String

    /// Creates (or replaces) the pcap file at `path`.
    init(path: String) throws(CaptureError) {
        self.path = path
        writer = try PcapWriter(path: path, linkType: .ethernet, timestampPrecision: .nanoseconds)
    }

    /// Appends `payload`, sent from `source` to `destination` at `nanoseconds` since the epoch.
    func record(_ payload: UnsafeRawBufferPointer, from source: SocketAddress, to destination: SocketAddress, atNanoseconds nanoseconds: Int64) {
        guard let from = Self.endpoint(source), let to = Self.endpoint(destination) else { return }
        record(payload, from: from, to: to, atNanoseconds: nanoseconds)
    }

    /// Appends the offer and the answer as the SDP bodies of a minimal SIP INVITE and its 200 OK
    /// on the loopback's port 5060, as a SIP layer would have carried them: with them the
    /// capture names its codecs and SRTP keys to any analyzer (ours, Wireshark) as a real
    /// call's capture would.
    func recordSignalling(offer: String, answer: String, atNanoseconds nanoseconds: Int64) {
        let sip = UDPEndpoint(address: .v4(IPv4Address(127, 0, 0, 1)), port: Self.sipPort)
        let headers = """
            Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bK-mediabench\r
            From: <sip:caller@127.0.0.1>;tag=caller\r
            To: <sip:callee@127.0.0.1>\r
            Call-ID: mediabench-call@127.0.0.1\r
            CSeq: 1 INVITE\r
            Content-Type: application/sdp\r

            """
        for (index, (firstLine, body)) in [("INVITE sip:callee@127.0.0.1 SIP/2.0", offer), ("SIP/2.0 200 OK", answer)].enumerated() {
            let message = Array("\(firstLine)\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
            message.withUnsafeBytes { record($0, from: sip, to: sip, atNanoseconds: nanoseconds + Int64(index) * 1000) }
        }
    }

    /// Flushes and closes the file.
    func finish() throws(CaptureError) {
        lock.lock()
        let taken = writer.take()
        lock.unlock()
        guard let taken else { return }
        try taken.finish()
    }

    private func record(_ payload: UnsafeRawBufferPointer, from source: UDPEndpoint, to destination: UDPEndpoint, atNanoseconds nanoseconds: Int64) {
        lock.withLock {
            guard (try? UDPFrameBuilder.ethernetFrame(from: source, to: destination, payload: payload, into: &frame)) != nil else { return }
            frame.withUnsafeBytes { writer?.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: nanoseconds)) }
        }
    }

    private static func endpoint(_ address: SocketAddress) -> UDPEndpoint? {
        IPAddress(address.host).map { UDPEndpoint(address: $0, port: address.port) }
    }
}
