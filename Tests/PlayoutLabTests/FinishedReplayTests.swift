import Codecs
import PlayoutLab
import Testing

/// ``StreamPlayoutReplay/finish(listener:)`` releases the replay's storage and keeps its figures:
/// what it reports after finishing is what it played up to then, whatever comes later.
@Suite struct FinishedReplayTests {
    /// Feeds `count` G.711 packets of 20 ms from `first` on, one in ten lost, arriving on time
    /// plus a few milliseconds; returns the samples heard.
    private func feed(_ replay: StreamPlayoutReplay, from first: Int, count: Int) -> Int {
        let payload = [UInt8](repeating: 0x55, count: 160)
        var heard = 0
        for index in first..<(first + count) where index % 10 != 9 {
            payload.withUnsafeBytes { bytes in
                replay.receive(
                    sequenceNumber: UInt16(truncatingIfNeeded: index), timestamp: UInt32(index) * 160, marker: false,
                    payloadType: 0, payload: bytes, arrivalMilliseconds: Double(index) * 20 + Double(index % 3) * 4
                ) { heard += $0.count }
            }
        }
        return heard
    }

    @Test func keepsItsFiguresAndIgnoresLaterPackets() {
        let replay = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000)
        #expect(feed(replay, from: 0, count: 300) > 0)
        #expect(!replay.isFinished)
        var drained = 0
        replay.finish { drained += $0.count }
        #expect(replay.isFinished)
        // Half a second of pulls after the last packet, 80 samples each.
        #expect(drained == 50 * 80)
        let score = replay.score
        #expect(score.networkLossPercent > 9 && score.networkLossPercent < 11)
        #expect(score.concealmentEvents > 0)

        #expect(feed(replay, from: 300, count: 100) == 0)
        replay.finish { drained += $0.count }
        #expect(drained == 50 * 80)
        #expect(replay.score == score)
        #expect(replay.toneSamples == 0)
    }
}
