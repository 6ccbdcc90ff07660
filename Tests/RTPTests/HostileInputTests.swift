import Testing
import RTP
import TestSupport

/// Truncated, oversized, bit-flipped and random inputs: every parser returns or throws, never
/// traps, and every error's offset lies inside the input.
@Suite("Hostile input")
struct HostileInputTests {
    /// Valid packets of every kind to mutate.
    static func seeds() throws -> [[UInt8]] {
        try TSharkInteropTests.rtpCases.map(TSharkInteropTests.buildRTP) + [
            try SampleCompound.build(), try TSharkInteropTests.receiverReportCompound(), RTPPacketTests.rfc6904Packet,
        ]
    }

    /// Runs every parser over `bytes`, reading every field of whatever parses.
    static func parseEverything(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            do throws(RTPError) {
                let packet = try RTPPacket(raw)
                _ = packet.csrcs.reduce(0, &+)
                _ = packet.headerExtension.map { Array($0.elements).count + ($0.elementsAreWellFormed ? 1 : 0) }
                _ = packet.payload.count
            } catch {
                #expect((0...raw.count).contains(error.offset), "\(error)")
            }
            do throws(RTPError) {
                for packet in try RTCPCompoundPacket(raw) {
                    if case .sourceDescription(let description) = packet {
                        for chunk in description.chunks { _ = chunk.items.map(\.text) }
                    }
                    if case .extendedReport(let report) = packet { _ = Array(report.blocks).count }
                    if case .senderReport(let report) = packet { _ = Array(report.reportBlocks) }
                    if case .goodbye(let goodbye) = packet { _ = goodbye.reasonText }
                }
            } catch {
                #expect((0...raw.count).contains(error.offset), "\(error)")
            }
            _ = try? DTMFEventPayload(parsing: raw)
            _ = try? ComfortNoisePayload(parsing: raw)
            _ = DatagramClassifier.classify(raw)
        }
    }

    @Test("Every truncation of valid packets")
    func truncations() throws {
        for seed in try Self.seeds() {
            for length in 0...seed.count { Self.parseEverything(Array(seed[..<length])) }
        }
    }

    @Test("Bit flips and length-field corruption of valid packets")
    func mutations() throws {
        var generator = SplitMix64(seed: 3550)
        for seed in try Self.seeds() {
            for _ in 0..<2000 {
                var bytes = seed
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] = index % 4 < 2 && Bool.random(using: &generator) ? 0xFF : UInt8.random(in: 0...255, using: &generator)
                }
                Self.parseEverything(bytes)
            }
        }
    }

    @Test("Random datagrams, mostly with version 2")
    func randomBytes() {
        var generator = SplitMix64(seed: 4733)
        for _ in 0..<20_000 {
            var bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty && Bool.random(using: &generator) { bytes[0] = 0x80 | bytes[0] & 0x3F }
            Self.parseEverything(bytes)
        }
    }

    @Test("Statistics and DTMF state machines take any sequence of inputs")
    func stateMachines() {
        var generator = SplitMix64(seed: 3611)
        var statistics = ReceptionStatistics(clockRate: 48000)
        var receiver = DTMFReceiver()
        for _ in 0..<50_000 {
            statistics.record(
                sequence: SequenceNumber(UInt16.random(in: 0...UInt16.max, using: &generator)),
                timestamp: RTPTimestamp(UInt32.random(in: 0...UInt32.max, using: &generator)),
                arrival: MediaTime(nanoseconds: Int64.random(in: Int64.min...Int64.max, using: &generator)))
            let payload = DTMFEventPayload(
                event: UInt8.random(in: 0...3, using: &generator), isEnd: Bool.random(using: &generator),
                volume: 10, duration: UInt16.random(in: 0...UInt16.max, using: &generator))
            _ = Array(receiver.receive(payload, timestamp: RTPTimestamp(UInt32.random(in: 0...4, using: &generator) * 0xFFFF)))
        }
        let block = statistics.makeReportBlock(ssrc: 1, now: MediaTime(nanoseconds: .max))
        #expect(block.cumulativeLost >= -0x80_0000 && block.cumulativeLost <= 0x7F_FFFF)
        #expect(statistics.jitter.isFinite)
    }
}
