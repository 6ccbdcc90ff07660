import Codecs
import PlayoutLab
import Testing

/// A replay whose PCM nobody wants (`deliversAudio: false`, as the analyzer's without a WAV
/// file) leaves each pull's audio in the buffer instead of copying it out: it never calls its
/// listeners, and its figures are those of the same replay handing every pull to a listener.
@Suite struct ReplayWithoutListenerTests {
    /// 600 G.711 packets of 20 ms, one in 23 lost, every 7th 70 ms late (some late for the
    /// buffer, some reordered), loud and quiet seconds in turn (pauses for the buffer to move
    /// its delay in), and a telephone event; returns the samples handed to the listener.
    private func feed(_ replay: StreamPlayoutReplay) -> Int {
        var heard = 0
        for index in 0..<600 where index % 23 != 22 {
            let arrival = Double(index) * 20 + Double(index % 5) * 3 + (index % 7 == 6 ? 70 : 0)
            let loud = (index / 50) % 2 == 0
            let payload = (0..<160).map { loud ? UInt8(truncatingIfNeeded: $0 &* 37 &+ index) : 0xFF ^ UInt8($0 & 1) }
            payload.withUnsafeBytes { bytes in
                replay.receive(
                    sequenceNumber: UInt16(truncatingIfNeeded: index), timestamp: UInt32(index) * 160, marker: false,
                    payloadType: 0, payload: bytes, arrivalMilliseconds: arrival
                ) { heard += $0.count }
            }
        }
        replay.finish { heard += $0.count }
        return heard
    }

    @Test func sameFiguresWithoutCopyingThePulls() {
        let listened = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000)
        let unheard = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000, deliversAudio: false)
        #expect(feed(listened) > 600 * 160)
        #expect(feed(unheard) == 0)
        #expect(unheard.score == listened.score)
        #expect(listened.score.networkLossPercent > 4)
        #expect(listened.score.lateLossPercent > 0)
        #expect(listened.score.timeStretchPercent > 0)
    }
}
