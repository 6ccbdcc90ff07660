import Capture
import Foundation
import RTP

/// Writes small pcap files for the analyzer tests: RTP packets, SIP messages and arbitrary UDP
/// payloads between chosen endpoints, at chosen times.
struct AnalyzerSyntheticCapture: ~Copyable {
    let url: URL
    private var writer: PcapWriter

    static let caller = UDPEndpoint(address: .v4(IPv4Address(192, 0, 2, 1)), port: 40_000)
    static let callee = UDPEndpoint(address: .v4(IPv4Address(192, 0, 2, 2)), port: 50_000)

    init(name: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("analyzer-\(name)-\(UUID().uuidString).pcap")
        writer = try PcapWriter(path: url.path, linkType: .ethernet, timestampPrecision: .nanoseconds)
    }

    /// One UDP datagram at `milliseconds` after an arbitrary epoch.
    mutating func write(
        _ payload: [UInt8], at milliseconds: Double,
        from source: UDPEndpoint = caller, to destination: UDPEndpoint = callee
    ) throws {
        let frame = try UDPFrameBuilder.ethernetFrame(from: source, to: destination, payload: payload)
        let timestamp = CaptureTimestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000 + Int64(milliseconds * 1e6))
        frame.withUnsafeBytes { writer.write($0, timestamp: timestamp) }
    }

    /// One RTP packet with a 160-byte payload.
    mutating func writeRTP(
        sequence: UInt16, timestamp: UInt32, at milliseconds: Double, payloadType: UInt8 = 0,
        ssrc: UInt32 = 0x1234_5678, from source: UDPEndpoint = caller,
        to destination: UDPEndpoint = callee
    ) throws {
        try write(
            Self.rtp(sequence: sequence, timestamp: timestamp, payloadType: payloadType, ssrc: ssrc),
            at: milliseconds, from: source, to: destination)
    }

    static func rtp(sequence: UInt16, timestamp: UInt32, payloadType: UInt8, ssrc: UInt32) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12 + 160)
        let header = RTPHeaderFields(
            payloadType: payloadType, sequenceNumber: SequenceNumber(sequence), timestamp: RTPTimestamp(timestamp), ssrc: ssrc)
        let length = try bytes.withUnsafeMutableBytes { buffer throws(RTPError) in
            var builder = try RTPPacketBuilder(into: buffer, header: header)
            try builder.commitPayload(byteCount: 160)
            return try builder.finish()
        }
        return Array(bytes.prefix(length))
    }

    /// Closes the file and returns its path.
    consuming func finish() throws -> String {
        let path = url.path
        try writer.finish()
        return path
    }
}
