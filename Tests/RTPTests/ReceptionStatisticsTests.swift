import Testing
import RTP

@Suite("Reception statistics (RFC 3550 A.1, A.3, A.8)")
struct ReceptionStatisticsTests {
    /// Feeds packets with 20 ms spacing at 8 kHz (160 timestamp units), arriving on time.
    static func feed(_ statistics: inout ReceptionStatistics, _ sequences: [UInt16], startIndex: Int = 0) -> [ReceptionOutcome] {
        sequences.enumerated().map { index, sequence in
            let slot = Int64(startIndex + index)
            return statistics.record(
                sequence: SequenceNumber(sequence), timestamp: RTPTimestamp(UInt32(truncatingIfNeeded: Int(sequence) * 160)),
                arrival: MediaTime(nanoseconds: slot * 20_000_000))
        }
    }

    @Test("Probation: the first packet is not counted, the second validates the source")
    func probation() {
        var statistics = ReceptionStatistics(clockRate: 8000)
        #expect(Self.feed(&statistics, [1000]) == [.probation])
        #expect(!statistics.isValid && statistics.expected == 0)
        #expect(Self.feed(&statistics, [1001, 1002]) == [.inOrder, .inOrder])
        #expect(statistics.isValid)
        #expect(statistics.received == 2 && statistics.expected == 2 && statistics.cumulativeLost == 0)
    }

    @Test("Probation restarts on a non-sequential packet")
    func probationRestart() {
        var statistics = ReceptionStatistics(clockRate: 8000)
        #expect(Self.feed(&statistics, [10, 20, 21, 22]) == [.probation, .probation, .inOrder, .inOrder])
        #expect(statistics.expected == 2)
    }

    @Test("Minimum sequential 1 counts the first packet")
    func noProbation() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        #expect(Self.feed(&statistics, [7, 8]) == [.inOrder, .inOrder])
        #expect(statistics.received == 2 && statistics.expected == 2)
    }

    @Test("Sequence wrap extends the highest sequence number; loss across the wrap is counted")
    func sequenceWrap() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        _ = Self.feed(&statistics, [65533, 65534, 65535, 1, 2])  // 0 lost
        #expect(statistics.extendedHighestSequence == 65536 + 2)
        #expect(statistics.expected == 6 && statistics.received == 5 && statistics.cumulativeLost == 1)
        let block = statistics.makeReportBlock(ssrc: 42, now: .zero)
        #expect(block.extendedHighestSequence == 0x0001_0002)
        #expect(block.cumulativeLost == 1)
        #expect(block.fractionLost == UInt8(1 * 256 / 6))
    }

    @Test("Fraction lost covers only the interval since the previous report")
    func intervalBookkeeping() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        _ = Self.feed(&statistics, Array(0...9))
        #expect(statistics.makeReportBlock(ssrc: 1, now: .zero).fractionLost == 0)
        _ = Self.feed(&statistics, [10, 11, 14, 15], startIndex: 10)  // 12, 13 lost: 2 of 6
        let block = statistics.makeReportBlock(ssrc: 1, now: .zero)
        #expect(block.fractionLost == UInt8(2 * 256 / 6))
        #expect(block.cumulativeLost == 2)
        _ = Self.feed(&statistics, [16, 17], startIndex: 14)
        #expect(statistics.makeReportBlock(ssrc: 1, now: .zero).fractionLost == 0)
    }

    @Test("Duplicates and reordering are counted apart")
    func duplicatesAndReordering() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        let outcomes = Self.feed(&statistics, [1, 2, 4, 3, 3, 4, 5, 2])
        #expect(outcomes == [.inOrder, .inOrder, .inOrder, .reordered, .duplicate, .duplicate, .inOrder, .duplicate])
        #expect(statistics.duplicates == 3 && statistics.reordered == 1)
        #expect(statistics.received == 8 && statistics.expected == 5)
        #expect(statistics.cumulativeLost == -3)  // RFC 3550: duplicates make loss negative
    }

    @Test("Duplicate detection across the sequence wrap and beyond 64 packets")
    func duplicateWindow() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        let sequences = (0..<100).map { UInt16(truncatingIfNeeded: 65500 + $0) }
        _ = Self.feed(&statistics, sequences)
        #expect(Self.feed(&statistics, [UInt16(65500 &+ 10)]) == [.duplicate])  // 89 behind the newest
        #expect(Self.feed(&statistics, [UInt16(truncatingIfNeeded: 65500 + 99)]) == [.duplicate])
        #expect(statistics.duplicates == 2 && statistics.reordered == 0)
    }

    @Test("A big jump is a bad sequence; two in a row restart the statistics")
    func restartAfterBigJump() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        _ = Self.feed(&statistics, [100, 101, 102])
        #expect(Self.feed(&statistics, [20000]) == [.badSequence])
        #expect(Self.feed(&statistics, [103]) == [.inOrder])  // a stray packet does not restart
        #expect(Self.feed(&statistics, [30000, 30001, 30002]) == [.badSequence, .restarted, .inOrder])
        #expect(statistics.received == 2 && statistics.expected == 2)
        #expect(statistics.extendedHighestSequence == 30002)
    }

    @Test("A jump under MAX_DROPOUT is loss; a step back over MAX_MISORDER is a bad sequence")
    func dropoutAndMisorderLimits() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        _ = Self.feed(&statistics, [5000])
        #expect(Self.feed(&statistics, [5000 + 2999]) == [.inOrder])
        #expect(statistics.cumulativeLost == 2998)
        #expect(Self.feed(&statistics, [7999 - 99]) == [.reordered])
        #expect(Self.feed(&statistics, [7999 - 100]) == [.badSequence])
    }

    @Test("Jitter follows A.8: constant transit gives 0, alternating ±D converges to D")
    func jitter() {
        var steady = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        _ = Self.feed(&steady, Array(0..<50))
        #expect(steady.jitter == 0)
        var alternating = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        for index in 0..<400 {
            let skew: Int64 = index % 2 == 0 ? 0 : 5_000_000  // every other packet 5 ms late
            alternating.record(
                sequence: SequenceNumber(UInt16(index)), timestamp: RTPTimestamp(UInt32(index * 160)),
                arrival: MediaTime(nanoseconds: Int64(index) * 20_000_000 + skew))
        }
        #expect(abs(alternating.jitter - 40) < 1e-6)  // |D| = 5 ms = 40 units every packet
        #expect(abs(alternating.jitterMilliseconds - 5) < 1e-6)
        #expect((39...40).contains(alternating.makeReportBlock(ssrc: 1, now: .zero).jitter))
    }

    @Test("Jitter is right across a timestamp wrap")
    func jitterTimestampWrap() {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        for index in 0..<20 {
            statistics.record(
                sequence: SequenceNumber(UInt16(index)), timestamp: RTPTimestamp(UInt32.max - 1000 &+ UInt32(index * 160)),
                arrival: MediaTime(nanoseconds: Int64(index) * 20_000_000))
        }
        #expect(statistics.jitter == 0)
    }

    @Test("LSR and DLSR come from the last sender report")
    func lastSenderReport() {
        var statistics = ReceptionStatistics(clockRate: 8000)
        let ntp = NTPTimestamp(seconds: 0x1234_5678, fraction: 0x9ABC_DEF0)
        statistics.recordSenderReport(ntpTimestamp: ntp, arrival: MediaTime(seconds: 10))
        let block = statistics.makeReportBlock(ssrc: 7, now: MediaTime(seconds: 11.5))
        #expect(block.lastSenderReport == 0x5678_9ABC)
        #expect(block.delaySinceLastSenderReport == 98304)  // 1.5 s × 65536
    }

    @Test("Telephone events count for loss but leave the jitter estimate alone")
    func telephoneEventsDoNotFeedJitter() {
        var statistics = ReceptionStatistics(clockRate: 8000)
        // Audio every 20 ms on time, then five telephone-event packets that all carry the
        // event's start timestamp (RFC 4733 §2.3), then audio again.
        for sequence in 0..<10 {
            statistics.record(
                sequence: SequenceNumber(UInt16(sequence)), timestamp: RTPTimestamp(UInt32(sequence * 160)),
                arrival: MediaTime(nanoseconds: Int64(sequence) * 20_000_000))
        }
        for sequence in 10..<15 {
            statistics.record(
                sequence: SequenceNumber(UInt16(sequence)), timestamp: RTPTimestamp(1600),
                arrival: MediaTime(nanoseconds: Int64(sequence) * 20_000_000), updatesJitter: false)
        }
        for sequence in 15..<20 {
            statistics.record(
                sequence: SequenceNumber(UInt16(sequence)), timestamp: RTPTimestamp(UInt32(sequence * 160)),
                arrival: MediaTime(nanoseconds: Int64(sequence) * 20_000_000))
        }
        #expect(statistics.jitter == 0)
        #expect(statistics.received == 19 && statistics.cumulativeLost == 0)

        // The same events fed to the estimate make it jump: the parameter is what keeps it still.
        var counted = ReceptionStatistics(clockRate: 8000)
        for sequence in 0..<15 {
            counted.record(
                sequence: SequenceNumber(UInt16(sequence)), timestamp: RTPTimestamp(UInt32(min(sequence, 10) * 160)),
                arrival: MediaTime(nanoseconds: Int64(sequence) * 20_000_000))
        }
        #expect(counted.jitter > 0)
    }
}

@Suite("Reception statistics: media payload octets")
struct ReceptionPayloadOctetTests {
    /// A packet of `payloadBytes` octets with sequence `sequence`, 20 ms at 48 kHz apart.
    static func record(
        _ statistics: inout ReceptionStatistics, sequence: UInt16, payloadBytes: Int, updatesJitter: Bool = true
    ) throws -> ReceptionOutcome {
        var bytes: [UInt8] = [0x80, 111, UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
        bytes += withUnsafeBytes(of: (UInt32(sequence) &* 960).bigEndian, Array.init)
        bytes += [0, 0, 0, 1] + Array(repeating: 0x55, count: payloadBytes)
        return try bytes.withUnsafeBytes { raw in
            try statistics.record(RTPPacket(raw), arrival: MediaTime(nanoseconds: Int64(sequence) * 20_000_000), updatesJitter: updatesJitter)
        }
    }

    @Test func mediaPacketsCountTheirPayloadAndDuplicatesAndEventsDoNot() throws {
        var statistics = ReceptionStatistics(clockRate: 48000, minimumSequential: 1)
        for sequence in UInt16(1)...10 { _ = try Self.record(&statistics, sequence: sequence, payloadBytes: 80) }
        #expect(try Self.record(&statistics, sequence: 10, payloadBytes: 80) == .duplicate)
        _ = try Self.record(&statistics, sequence: 11, payloadBytes: 4, updatesJitter: false)
        #expect(statistics.mediaPayloadPackets == 10)
        #expect(statistics.mediaPayloadOctets == 800)
    }
}
