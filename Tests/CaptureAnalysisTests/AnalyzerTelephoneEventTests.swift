import Capture
import CaptureAnalysis
import Foundation
import TestSupport
import Testing

/// A call whose sender sent its digits as RFC 4733 telephone events in place of audio: the
/// analyzer's replay gives the events to its buffer as the live receive path does, so the
/// listener's WAV holds the digits' tones where the sender's phone played them, and the
/// report counts them as tones, not concealment.
@Suite("CaptureAnalyzer telephone events")
struct AnalyzerTelephoneEventTests {
    /// ws_SIP_DTMF2.pcap (a real PCMA call from the Wireshark samples): stream 0x5711BF84 sends
    /// 6 7 8 9 1 2 3 as 120 ms events on payload type 96 (`telephone-event/8000` in its SDP),
    /// with no audio during each digit. spandsp's DTMF receiver (independent of our tone
    /// generator and of the analyzer's RFC 4733 reader) hears the seven digits in what the
    /// listener heard, the tones last as long as the events, and no digit is concealed.
    @Test func digitsSentInPlaceOfAudioAreHeardAsTones() throws {
        let (report, heard) = try Self.analyze(try Fixtures.capture("ws_SIP_DTMF2.pcap").path)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x5711_BF84 })
        #expect(stream.foundBy == .sdp)
        #expect(stream.dtmfEvents.map(\.key).joined() == "6789123")
        #expect(heard[stream.key] == "6789123", "spandsp heard '\(heard[stream.key] ?? "")'")
        let buffer = try #require(stream.jitterBuffer)
        // Each digit's last event packet says 960 ticks at 8 kHz (tshark): 120 ms.
        let sent = stream.dtmfEvents.reduce(0) { $0 + $1.durationMilliseconds }
        #expect(sent == 7 * 120)
        #expect(abs(buffer.toneMilliseconds - sent) < 1, "tones \(buffer.toneMilliseconds) ms, events \(sent) ms")
        // Without the events each digit began with a concealment event (8 in all, against the
        // one the stream has besides its digits).
        #expect(buffer.concealmentEvents < stream.dtmfEvents.count, "\(buffer.concealmentEvents) concealment events")
        #expect(buffer.effectiveLossPercent == 0)

        // The other direction sent no events: no tone, no digit heard.
        let other = try #require(report.streams.first { $0.key.ssrc == 0x9A7B_5382 })
        #expect(other.jitterBuffer?.toneMilliseconds == 0)
        #expect(heard[other.key] == "")
    }

    /// The same call without its SIP messages: the streams are found by the RTP heuristic and
    /// no SDP names payload type 96. Its 4-byte payloads beside the PCMA stream are DTMF
    /// events, recognised as such (the seven digits reported), and played as tones with their
    /// durations on the stream's 8 kHz clock: spandsp hears the seven digits.
    @Test func digitsWithoutSDPAreRecognisedAndHeardAsTones() throws {
        var reader = try CaptureReader(path: try Fixtures.capture("ws_SIP_DTMF2.pcap").path)
        var statistics = CaptureStatistics()
        var datagrams: [(nanoseconds: Int64, payload: [UInt8], source: UDPEndpoint, destination: UDPEndpoint)] = []
        try reader.forEachUDPDatagram(counting: &statistics) { datagram in
            guard datagram.source.port != CaptureAnalyzer.sipPort, datagram.destination.port != CaptureAnalyzer.sipPort else { return }
            datagrams.append(
                (datagram.timestamp.nanosecondsSinceEpoch, Array(datagram.payload), datagram.source, datagram.destination))
        }
        var capture = try AnalyzerSyntheticCapture(name: "dtmf-without-sdp")
        let start = datagrams.first?.nanoseconds ?? 0
        for datagram in datagrams {
            try capture.write(
                datagram.payload, at: Double(datagram.nanoseconds - start) / 1e6, from: datagram.source, to: datagram.destination)
        }
        let path = try capture.finish()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let (report, heard) = try Self.analyze(path)
        #expect(report.datagrams.sip == 0)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x5711_BF84 })
        #expect(stream.foundBy == .heuristic)
        #expect(stream.dtmfEvents.map(\.key).joined() == "6789123")
        #expect(heard[stream.key] == "6789123", "spandsp heard '\(heard[stream.key] ?? "")'")
        let tones = try #require(stream.jitterBuffer?.toneMilliseconds)
        #expect(abs(tones - 7 * 120) < 1, "tones \(tones) ms")
    }

    // MARK: - Helpers

    /// The report of the capture at `path` and, per stream with a WAV file, the digits
    /// spandsp's DTMF receiver hears in it (`scripts/listening-quality/detect_dtmf.py`).
    private static func analyze(_ path: String) throws -> (CaptureFileReport, [RTPStreamKey: String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-dtmf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = CaptureAnalyzer.Configuration()
        configuration.wavDirectory = directory.path
        let report = CaptureAnalyzer.analyzeFile(atPath: path, configuration: configuration)
        let detector = Fixtures.packageRoot.appendingPathComponent("scripts/listening-quality/detect_dtmf.py").path
        var heard: [RTPStreamKey: String] = [:]
        for stream in report.streams {
            guard let wav = stream.listenerWAV?.path else { continue }
            let digits = try ExternalTool.run(["timeout", "30", "python3", detector, wav]).standardOutput
            heard[stream.key] = digits.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (report, heard)
    }
}
