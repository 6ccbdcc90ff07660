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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-dtmf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = CaptureAnalyzer.Configuration()
        configuration.wavDirectory = directory.path
        let report = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture("ws_SIP_DTMF2.pcap").path, configuration: configuration)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x5711_BF84 })
        #expect(stream.dtmfEvents.map(\.key).joined() == "6789123")
        let buffer = try #require(stream.jitterBuffer)

        let wav = try #require(stream.listenerWAV?.path)
        let detector = Fixtures.packageRoot.appendingPathComponent("scripts/listening-quality/detect_dtmf.py").path
        let heard = try ExternalTool.run(["timeout", "30", "python3", detector, wav]).standardOutput
        #expect(heard.trimmingCharacters(in: .whitespacesAndNewlines) == "6789123", "spandsp heard '\(heard)'")

        let sent = stream.dtmfEvents.reduce(0) { $0 + $1.durationMilliseconds }
        #expect(abs(buffer.toneMilliseconds - sent) < 1, "tones \(buffer.toneMilliseconds) ms, events \(sent) ms")
        // Without the events each digit began with a concealment event (8 in all, against the
        // one the stream has besides its digits).
        #expect(buffer.concealmentEvents < stream.dtmfEvents.count, "\(buffer.concealmentEvents) concealment events")
        #expect(buffer.effectiveLossPercent == 0)

        // The other direction sent no events: no tone.
        let other = try #require(report.streams.first { $0.key.ssrc == 0x9A7B_5382 }?.jitterBuffer)
        #expect(other.toneMilliseconds == 0)
    }
}
