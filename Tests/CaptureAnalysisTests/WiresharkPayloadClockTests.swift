import QualityMetrics
import CaptureAnalysis
import TestSupport
import Testing

/// The clock Wireshark 4.0 assumes per payload type (`clock_map` and `mimetype_and_clock_map`
/// in `ui/tap-rtp-analysis.c`), and hand-worked streams through ``WiresharkRTPStreamStatistics``.
@Suite("Wireshark payload clocks and hand-worked streams")
struct WiresharkPayloadClockTests {
    @Test func staticPayloadTypesUseWiresharksTableWhateverTheSDPSays() {
        #expect(WiresharkPayloadClock.forPayloadType(0) == .rate(hertz: 8000))
        #expect(WiresharkPayloadClock.forPayloadType(9, encodingName: "G722", sdpClockRate: 16000) == .rate(hertz: 8000))
        #expect(WiresharkPayloadClock.forPayloadType(6) == .rate(hertz: 16000))
        #expect(WiresharkPayloadClock.forPayloadType(11) == .rate(hertz: 44100))
        #expect(WiresharkPayloadClock.forPayloadType(34) == .rate(hertz: 90000))
        #expect(WiresharkPayloadClock.forPayloadType(13) == .rate(hertz: 8000))
        #expect(WiresharkPayloadClock.forPayloadType(20) == .unknown)
        #expect(WiresharkPayloadClock.forPayloadType(95) == .unknown)
    }

    @Test func dynamicPayloadTypesNeedAnEncodingName() {
        #expect(WiresharkPayloadClock.forPayloadType(111) == .unknown)
        #expect(WiresharkPayloadClock.forPayloadType(99, encodingName: "opus", sdpClockRate: 48000) == .rate(hertz: 48000))
        #expect(
            WiresharkPayloadClock.forPayloadType(101, encodingName: "telephone-event", sdpClockRate: 8000)
                == .telephoneEvent)
        #expect(WiresharkPayloadClock.forPayloadType(101, encodingName: "TELEPHONE-EVENT") == .telephoneEvent)
        // No rate in the SDP: Wireshark's table of media subtypes, longest nested name first.
        #expect(WiresharkPayloadClock.forPayloadType(97, encodingName: "AMR-WB") == .rate(hertz: 16000))
        #expect(WiresharkPayloadClock.forPayloadType(97, encodingName: "amr") == .rate(hertz: 8000))
        #expect(WiresharkPayloadClock.forPayloadType(97, encodingName: "H264", sdpClockRate: 0) == .rate(hertz: 90000))
        #expect(WiresharkPayloadClock.forPayloadType(97, encodingName: "VP8") == .unknown)
        #expect(WiresharkPayloadClock.dynamicRate(encodingName: "EVRCWB1") == 16000)
    }

    /// Three PCMA packets, 20 ms apart in RTP time, arriving at 0, 21 and 40 ms:
    /// packet 2: delta 21, D = |21 − (0 + 20)| = 1, J = 1/16 = 0.0625;
    /// packet 3: delta 19, D = |40 − (21 + 20)| = 1, J = (15 × 0.0625 + 1)/16 = 0.12109375.
    /// Means weigh by the packets seen before: delta (0 × 0 + 21)/1 = 21, then (21 × 1 + 19)/2 = 20.
    @Test func threePacketsByHand() {
        var statistics = WiresharkRTPStreamStatistics()
        let clock = WiresharkPayloadClock.forPayloadType(8)
        for (index, arrivalMilliseconds) in [0, 21, 40].enumerated() {
            statistics.record(
                arrivalNanoseconds: Int64(arrivalMilliseconds) * 1_000_000,
                sequenceNumber: UInt16(index), timestamp: UInt32(index) * 160, payloadType: 8,
                marker: false, clock: clock)
        }
        #expect(statistics.delta == WiresharkMillisecondFigures(minimum: 19, mean: 20, maximum: 21))
        #expect(
            statistics.jitter
                == WiresharkMillisecondFigures(
                    minimum: 0.0625, mean: (0.0625 + 0.12109375) / 2,
                    maximum: 0.12109375))
        #expect(statistics.packets == 3 && statistics.lostPackets == 0 && !statistics.hasProblems)
    }

    /// A duplicate makes "Lost" negative and marks a problem (expected 2, received 3).
    @Test func duplicateGivesNegativeLoss() {
        var statistics = WiresharkRTPStreamStatistics()
        for sequenceNumber: UInt16 in [10, 11, 11] {
            let analysis = statistics.record(
                arrivalNanoseconds: Int64(sequenceNumber) * 20_000_000,
                sequenceNumber: sequenceNumber, timestamp: 0, payloadType: 101,
                marker: false, clock: .telephoneEvent)
            #expect(analysis.flags.contains(.telephoneEvent) || analysis.flags.contains(.first))
        }
        #expect(statistics.expectedPackets == 2 && statistics.lostPackets == -1 && statistics.lostPercent == -50)
        #expect(statistics.hasProblems && statistics.sequenceErrors == 1)
        #expect(statistics.jitter == .none)
    }

    /// Arbitrary field values, extreme arrival times included, never trap.
    @Test func arbitraryInputNeverTraps() {
        var statistics = WiresharkRTPStreamStatistics()
        var random = SplitMix64(seed: 1)
        let clocks: [WiresharkPayloadClock] = [
            .unknown, .telephoneEvent, .rate(hertz: 1), .rate(hertz: 8000),
            .rate(hertz: .max),
        ]
        for round in 0..<20_000 {
            let state = random.next()
            let arrival = round % 97 == 0 ? (round % 2 == 0 ? Int64.min : Int64.max) : Int64(bitPattern: state)
            statistics.record(
                arrivalNanoseconds: arrival, sequenceNumber: UInt16(truncatingIfNeeded: state >> 16),
                timestamp: UInt32(truncatingIfNeeded: state >> 32), payloadType: UInt8(state >> 57),
                marker: state & 1 == 1, clock: clocks[Int((state >> 8) % 5)])
        }
        #expect(statistics.packets == 20_000)
        #expect(statistics.hasProblems)
    }
}
