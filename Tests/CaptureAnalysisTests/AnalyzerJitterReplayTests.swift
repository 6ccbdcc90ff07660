import Capture
import Codecs
import Foundation
import QualityMetrics
import CaptureAnalysis
import RTP
import TestSupport
import Testing

/// The analyzer's replay of each stream through our jitter buffer (`jitter_buffer`) and the
/// WAV files of what the listener heard.
@Suite("CaptureAnalyzer jitter-buffer replay")
struct AnalyzerJitterReplayTests {
    /// The PCMU call of ws_sip-rtp-g711.pcap: the WAV lasts from the first packet to half a
    /// second after the last (± one pull), and most of its 10 ms pulls are exact copies of a
    /// direct G.711 decode of the stream's payloads (the others concealed or time-stretched).
    @Test func g711WAVIsTheDecodedStream() throws {
        let capture = try Fixtures.capture("ws_sip-rtp-g711.pcap").path
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = CaptureAnalyzer.Configuration()
        configuration.wavDirectory = directory.path
        let report = CaptureAnalyzer.analyzeFile(atPath: capture, configuration: configuration)
        let stream = try #require(report.streams.first { $0.key.ssrc == 0x343D_A99B })
        #expect(stream.codec == "PCMU")
        let path = try #require(stream.listenerWAV?.path)
        #expect(path.hasSuffix("/ws_sip-rtp-g711-343DA99B-10.0.2.15_27942-10.0.2.20_6000.wav"))
        #expect(stream.listenerWAV?.skippedReason == nil)
        let heard = try WAVAudio(contentsOfFile: path)
        #expect(heard.format == AudioFormat(sampleRate: 8000, channels: 1))

        let pulls = ((stream.durationSeconds * 1000 + 505) / 10).rounded(.up)
        #expect(abs(Double(heard.frameCount) - pulls * 80) <= 80, "\(heard.frameCount) samples for \(pulls) pulls")

        let reference = try Self.decodedPayloads(of: stream.key, in: capture, law: .muLaw)
        let matcher = SampleWindowMatcher(reference, window: 80)
        let voiced = stride(from: 0, to: heard.samples.count - 80, by: 80)
            .map { Array(heard.samples[$0..<($0 + 80)]) }
            .filter { chunk in chunk.contains { abs(Int($0)) > 500 } }
        let exact = voiced.filter(matcher.contains).count
        #expect(voiced.count > 300)
        #expect(Double(exact) >= 0.8 * Double(voiced.count), "\(exact) of \(voiced.count) voiced pulls match the decode")
    }

    /// The Opus call of ws_sip-rtp-opus.pcap is heard at 48 kHz, for as long as the stream
    /// lasts plus half a second (± one pull), and is not silence.
    @Test func opusIsHeardAt48kHz() throws {
        let (stream, heard) = try Self.analyzeWithWAV("ws_sip-rtp-opus.pcap", configuration: CaptureAnalyzer.Configuration())
        #expect(stream.codec == "opus")
        #expect(heard.format == AudioFormat(sampleRate: 48_000, channels: 1))
        let pulls = ((stream.durationSeconds * 1000 + 505) / 10).rounded(.up)
        #expect(abs(Double(heard.frameCount) - pulls * 480) <= 480)
        #expect(Self.rootMeanSquare(heard.samples) > 100)
    }

    /// An SRTP stream is heard decrypted: with its key the WAV is the music, without it the
    /// ciphertext decoded as A-law, which is loud noise.
    @Test func srtpStreamsAreHeardDecrypted() throws {
        var keyed = CaptureAnalyzer.Configuration()
        let octets = try #require(Data(base64Encoded: "aSBrbm93IGFsbCB5b3VyIGxpdHRsZSBzZWNyZXRz"))
        keyed.srtpKeys = [SRTPKeyAssignment(ssrc: nil, key: try SRTPMasterKey(suite: .aes128CounterModeHMACSHA1Tag80, keyAndSalt: octets))]
        let name = "srtp-decrypt_marseillaise-srtp_first1500.pcap"
        let (decrypted, clear) = try Self.analyzeWithWAV(name, configuration: keyed)
        let (_, cipher) = try Self.analyzeWithWAV(name, configuration: CaptureAnalyzer.Configuration())
        #expect(decrypted.srtp?.decrypted == 1500)
        #expect(decrypted.jitterBuffer?.effectiveLossPercent == 0)
        let clearLevel = Self.rootMeanSquare(clear.samples)
        let cipherLevel = Self.rootMeanSquare(cipher.samples)
        #expect(clearLevel > 100 && clearLevel * 2 < cipherLevel, "\(clearLevel) vs \(cipherLevel)")
    }

    /// On every catalogued capture: the figures are percentages, effective loss is at least
    /// network loss, percentiles are ordered, and G.711 streams are decoded.
    @Test func figuresAreSaneOnEveryCapture() throws {
        for url in try Fixtures.allCaptures() {
            let report = CaptureAnalyzer.analyzeFile(atPath: url.path)
            for stream in report.streams {
                guard let buffer = stream.jitterBuffer else { continue }
                let name = "\(url.lastPathComponent) \(stream.key)"
                for percent in [
                    buffer.networkLossPercent, buffer.lateLossPercent, buffer.effectiveLossPercent,
                    buffer.concealmentPercent,
                ] {
                    #expect((0...100).contains(percent), "\(name)")
                }
                #expect(buffer.effectiveLossPercent + 1e-9 >= buffer.networkLossPercent, "\(name)")
                #expect(buffer.p50DelayMilliseconds <= buffer.p95DelayMilliseconds, "\(name)")
                #expect(buffer.p95DelayMilliseconds <= buffer.p99DelayMilliseconds, "\(name)")
                // Up to the buffer's own stream restart: a sender that falls behind its clock
                // adds its lag (baresip's in baresip-srtp-srtcp.pcap, up to 3 s).
                #expect(buffer.meanDelayMilliseconds >= 0 && buffer.meanDelayMilliseconds < 5000, "\(name)")
                if stream.codec == "PCMA" || stream.codec == "PCMU" { #expect(buffer.audioDecoded, "\(name)") }
            }
        }
        let lossy = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture("ws_SIP_DTMF2.pcap").path)
            .streams.first { $0.key.ssrc == 0x9A7B_5382 }
        let buffer = try #require(lossy?.jitterBuffer)
        #expect(abs(buffer.networkLossPercent - 200.0 / 667) < 1e-6)
        #expect(lossy?.burstGap.discardRate == buffer.lateLossPercent / 100)
    }

    /// 20 ms PCMU for 3 s, 50 packets (1 s) missing, then 3 s more: the listener hears one
    /// interruption, concealment covers about the second that was missing, and the loss is
    /// the network's. The same stream with the missing second arriving late in a burst shows
    /// late loss instead.
    @Test func aOneSecondGapIsAnInterruption() throws {
        let lost = try Self.replay(name: "gap") { sequence in (50..<100).contains(sequence) ? nil : Double(sequence) * 20 }
        let lostBuffer = try #require(lost.jitterBuffer)
        #expect(lostBuffer.interruptions == 1)
        #expect(lostBuffer.concealmentEvents >= 1)
        #expect(abs(lostBuffer.networkLossPercent - 50.0 / 350 * 100) < 1e-6)
        #expect(lostBuffer.lateLossPercent == 0)
        #expect(lostBuffer.effectiveLossPercent >= lostBuffer.networkLossPercent)
        // About 1 s of the 7 s of media concealed.
        #expect(lostBuffer.concealmentPercent > 10 && lostBuffer.concealmentPercent < 20, "\(lostBuffer.concealmentPercent)")

        let stalled = try Self.replay(name: "stall") { sequence in (50..<100).contains(sequence) ? 2000 : Double(sequence) * 20 }
        let stalledBuffer = try #require(stalled.jitterBuffer)
        #expect(stalledBuffer.networkLossPercent == 0)
        #expect(stalledBuffer.interruptions >= 1)
        #expect(stalledBuffer.lateLossPercent > 0)
        #expect(stalledBuffer.effectiveLossPercent == stalledBuffer.lateLossPercent)
    }

    /// Without the replay there are no figures; a WAV asked for a codec that cannot be decoded
    /// is skipped with the reason.
    @Test func replayCanBeTurnedOffAndUndecodableCodecsAreSkipped() throws {
        var off = CaptureAnalyzer.Configuration()
        off.replaysJitterBuffer = false
        let g722 = try Fixtures.capture("ws_sip-rtp-g722.pcap").path
        #expect(CaptureAnalyzer.analyzeFile(atPath: g722, configuration: off).streams.allSatisfy { $0.jitterBuffer == nil })

        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var wav = CaptureAnalyzer.Configuration()
        wav.wavDirectory = directory.path
        let stream = try #require(CaptureAnalyzer.analyzeFile(atPath: g722, configuration: wav).streams.first)
        let buffer = try #require(stream.jitterBuffer)
        #expect(!buffer.audioDecoded)
        #expect(buffer.effectiveLossPercent < 1)
        #expect(stream.listenerWAV?.path == nil)
        #expect(stream.listenerWAV?.skippedReason?.contains("G722") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A stream silent for longer than the idle limit is finished while the capture goes on
    /// (its buffer released): its figures are those it has alone, a packet of it that comes
    /// after that is counted but not replayed (else 49 packets would be lost), and a later
    /// stream is replayed as usual.
    @Test func idleStreamsAreFinishedEarly() throws {
        let alone = try Self.replay(name: "alone") { Double($0) * 20 }
        var capture = try AnalyzerSyntheticCapture(name: "idle")
        for sequence in UInt16(0)..<350 {
            try capture.writeRTP(sequence: sequence, timestamp: UInt32(sequence) * 160, at: Double(sequence) * 20)
        }
        for sequence in UInt16(0)..<350 {
            try capture.writeRTP(
                sequence: sequence, timestamp: UInt32(sequence) * 160, at: 300_000 + Double(sequence) * 20,
                ssrc: 0x0BAD_F00D)
        }
        try capture.writeRTP(sequence: 400, timestamp: 400 * 160, at: 310_000)
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        #expect(report.streams.count == 2)
        let first = try #require(report.streams.first { $0.key.ssrc == 0x1234_5678 })
        let later = try #require(report.streams.first { $0.key.ssrc == 0x0BAD_F00D })
        #expect(first.packets == 351)
        #expect(first.jitterBuffer == alone.jitterBuffer)
        #expect(later.jitterBuffer == alone.jitterBuffer)
    }

    // MARK: - Helpers

    /// The first stream of a catalogued capture and the WAV of what its listener heard.
    private static func analyzeWithWAV(
        _ name: String, configuration: CaptureAnalyzer.Configuration
    ) throws -> (StreamReport, WAVAudio) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = configuration
        configuration.wavDirectory = directory.path
        let report = CaptureAnalyzer.analyzeFile(atPath: try Fixtures.capture(name).path, configuration: configuration)
        let stream = try #require(report.streams.first)
        return (stream, try WAVAudio(contentsOfFile: try #require(stream.listenerWAV?.path)))
    }

    private static func rootMeanSquare(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The analysis of 350 PCMU packets sent every 20 ms; `arrival` gives each one's arrival
    /// time in milliseconds, `nil` for lost. Packets are written in arrival order.
    private static func replay(name: String, arrival: (UInt16) -> Double?) throws -> StreamReport {
        var capture = try AnalyzerSyntheticCapture(name: name)
        let packets = (UInt16(0)..<350).compactMap { sequence in arrival(sequence).map { (sequence, $0) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        for (sequence, time) in packets {
            try capture.writeRTP(sequence: sequence, timestamp: UInt32(sequence) * 160, at: time)
        }
        let report = CaptureAnalyzer.analyzeFile(atPath: try capture.finish())
        return try #require(report.streams.first)
    }

    /// The stream's payloads in sequence order, decoded one by one with a fresh G.711 decoder.
    private static func decodedPayloads(of key: RTPStreamKey, in path: String, law: G711Law) throws -> [Int16] {
        var payloads: [(UInt16, [UInt8])] = []
        var reader = try CaptureReader(path: path)
        var statistics = CaptureStatistics()
        try reader.forEachUDPDatagram(counting: &statistics) { datagram in
            guard datagram.source == key.source, datagram.destination == key.destination,
                let packet = try? RTPPacket(datagram.payload), packet.ssrc == key.ssrc
            else { return }
            payloads.append((packet.sequenceNumber.rawValue, Array(packet.payload)))
        }
        var decoder = G711Decoder(law: law)
        var pcm: [Int16] = []
        for (_, payload) in payloads.sorted(by: { $0.0 < $1.0 }) {
            var frame = [Int16](repeating: 0, count: payload.count)
            let written = try payload.withUnsafeBytes { bytes in
                try frame.withUnsafeMutableBufferPointer { try decoder.decode(bytes, into: $0) }
            }
            pcm += frame.prefix(written)
        }
        return pcm
    }

    private static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Finds whether a window of samples occurs anywhere in a reference signal.
private struct SampleWindowMatcher {
    private let reference: [Int16]
    private let window: Int
    private var offsetsByPrefix: [UInt64: [Int]] = [:]

    init(_ reference: [Int16], window: Int) {
        self.reference = reference
        self.window = window
        guard reference.count >= window else { return }
        for offset in 0...(reference.count - window) {
            offsetsByPrefix[Self.prefix(reference, at: offset), default: []].append(offset)
        }
    }

    func contains(_ chunk: [Int16]) -> Bool {
        guard chunk.count == window else { return false }
        return offsetsByPrefix[Self.prefix(chunk, at: 0)]?.contains { offset in
            reference[offset..<(offset + window)].elementsEqual(chunk)
        } ?? false
    }

    private static func prefix(_ samples: [Int16], at offset: Int) -> UInt64 {
        (0..<4).reduce(UInt64(0)) { $0 << 16 | UInt64(UInt16(bitPattern: samples[offset + $1])) }
    }
}
