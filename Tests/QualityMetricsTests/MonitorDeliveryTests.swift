import BenchmarkHarness
import QualityMetrics
import RTP
import Testing
import TestSupport

/// ``LiveQualityMonitor``: one report per tick on the stream, bounded when nobody reads, and
/// feeding from several threads.
@Suite("LiveQualityMonitor delivery")
struct MonitorDeliveryTests {
    static let start = MediaTime(seconds: 7)

    static func live(bufferedReports: Int = 8) -> LiveQualityMonitor {
        LiveQualityMonitor(QualityMonitor(codec: ScriptedCall.pcmu, start: start), bufferedReports: bufferedReports)
    }

    @Test func oneReportPerTick() async {
        let live = Self.live()
        let reader = Task {
            var elapsed: [Double] = []
            for await report in live.reports { elapsed.append(report.elapsedSeconds) }
            return elapsed
        }
        for second in 1...5 {
            live.update {
                $0.update(
                    reception: .init(
                        expectedPackets: Int64(second) * 50, receivedPackets: Int64(second) * 50,
                        duplicatePackets: 0, jitterMilliseconds: 0))
            }
            live.tick(now: Self.start + MediaTime(seconds: Double(second)))
        }
        live.finish()
        #expect(await reader.value == [1, 2, 3, 4, 5])
    }

    @Test func ticksWithoutAReaderKeepOnlyTheNewestReports() async {
        let live = Self.live(bufferedReports: 8)
        for second in 1...10_000 {
            let report = live.tick(now: Self.start + MediaTime(seconds: Double(second)))
            #expect(report.elapsedSeconds == Double(second), "tick returns its own report")
        }
        live.finish()
        var elapsed: [Double] = []
        for await report in live.reports { elapsed.append(report.elapsedSeconds) }
        // The stream held 8 reports, not 10 000: the newest ones.
        #expect(elapsed == (9993...10_000).map(Double.init))
    }

    @Test func threadsFeedWhileTheTimerTicks() async throws {
        let live = Self.live(bufferedReports: 1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<5_000 { live.update { $0.record(.received) } }
                }
            }
            group.addTask {
                for tick in 1...20 { live.tick(now: Self.start + MediaTime(seconds: Double(tick))) }
            }
        }
        let report = live.tick(now: Self.start + MediaTime(seconds: 21))
        // No loss: the whole stream is one gap of 10 000 packets of 20 ms.
        #expect(report.gapDurationMilliseconds == 10_000 * 20)
    }

    @Test(.countsAllocations) func feedingAllocatesNothing() {
        let live = Self.live()
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        let remoteBlock = RTCPReportBlock(
            ssrc: 1, fractionLost: 3, cumulativeLost: 2, extendedHighestSequence: 9, jitter: 40,
            lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 100)
        live.tick(now: Self.start)
        let (allocations, _) = AllocationCounter.counting {
            for index in 0..<10_000 {
                let arrival = Self.start + .milliseconds(Double(index) * 20)
                statistics.record(
                    sequence: SequenceNumber(UInt16(truncatingIfNeeded: index)),
                    timestamp: RTPTimestamp(UInt32(index) * 160), arrival: arrival)
                live.update {
                    $0.recordArrival(ReceptionCounters(statistics))
                    $0.record(index % 50 == 0 ? .discarded : .received)
                    $0.update(playout: .zero)
                    $0.recordRemoteReport(remoteBlock, arrival: arrival)
                }
            }
        }
        #expect(allocations == 0)
    }
}
