import Capture
import CaptureAnalysis
import Foundation
import Testing

/// More interleaved streams than the analyzer's stream-index cache has slots, IPv4 and IPv6,
/// starting while others run: every packet is counted in its own stream.
@Suite("CaptureAnalyzer with many interleaved streams")
struct AnalyzerManyStreamsTests {
    @Test func everyPacketIsCountedInItsOwnStream() throws {
        var capture = try AnalyzerSyntheticCapture(name: "many-streams")
        let streamCount = 600
        func packets(ofStream stream: Int) -> Int { 6 + stream % 5 }
        func endpoints(ofStream stream: Int) -> (UDPEndpoint, UDPEndpoint) {
            let port = UInt16(10_000 + 2 * (stream % 40))
            if stream % 10 == 9 {
                return (
                    UDPEndpoint(address: .v6(IPv6Address(high: 0x2001_0DB8 << 32, low: UInt64(stream / 40 + 1))), port: port),
                    UDPEndpoint(address: .v6(IPv6Address(high: 0x2001_0DB8 << 32, low: 0xFFFF)), port: 20_000)
                )
            }
            return (
                UDPEndpoint(address: .v4(IPv4Address(10, 0, UInt8(stream / 40), 1)), port: port),
                UDPEndpoint(address: .v4(IPv4Address(10, 0, 0, 2)), port: 20_000)
            )
        }
        // Stream s starts in round s / 30, so streams keep starting between packets of others.
        var sent = [Int](repeating: 0, count: streamCount)
        var milliseconds = 0.0
        for round in 0..<(streamCount / 30 + 12) {
            for stream in 0..<streamCount where stream / 30 <= round && sent[stream] < packets(ofStream: stream) {
                let (source, destination) = endpoints(ofStream: stream)
                try capture.writeRTP(
                    sequence: UInt16(sent[stream]), timestamp: UInt32(sent[stream] * 160), at: milliseconds,
                    ssrc: UInt32(0x100 + stream % 3), from: source, to: destination)
                sent[stream] += 1
                milliseconds += 0.01
            }
        }
        var configuration = CaptureAnalyzer.Configuration()
        configuration.replaysJitterBuffer = false
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish(), configuration: configuration)
        #expect(report.streams.count == streamCount)
        for stream in 0..<streamCount {
            let (source, destination) = endpoints(ofStream: stream)
            let key = RTPStreamKey(source: source, destination: destination, ssrc: UInt32(0x100 + stream % 3))
            let found = report.streams.first { $0.key == key }
            #expect(found?.packets == packets(ofStream: stream), "stream \(stream)")
            #expect(found?.lost == 0, "stream \(stream)")
        }
    }
}
