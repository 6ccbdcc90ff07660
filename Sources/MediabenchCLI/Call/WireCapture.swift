import Capture
import MediaSession

/// Records datagrams as Ethernet/IPv4/UDP frames in a pcap file: what the relay put on the
/// wire, with the time it left. Used by the relay's delivery thread only.
final class WireCapture {
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
        guard let from = Self.endpoint(source), let to = Self.endpoint(destination),
              (try? UDPFrameBuilder.ethernetFrame(from: from, to: to, payload: payload, into: &frame)) != nil
        else { return }
        frame.withUnsafeBytes { writer?.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: nanoseconds)) }
    }

    /// Flushes and closes the file.
    func finish() throws(CaptureError) {
        guard let writer = writer.take() else { return }
        try writer.finish()
    }

    private static func endpoint(_ address: SocketAddress) -> UDPEndpoint? {
        IPAddress(address.host).map { UDPEndpoint(address: $0, port: address.port) }
    }
}
