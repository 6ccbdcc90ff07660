import BenchmarkHarness
import Codecs
import Jitter
import PlayoutLab
import RTP
import Testing
import TestSupport

/// The analyzer's jitter-buffer replay allocates nothing per packet or pull once warm (the
/// counter counts every thread, so each check takes the fewest allocations over attempts).
@Suite(.countsAllocations)
struct AnalyzeReplayAllocationTests {
    @Test func replayingG711PacketsAllocatesNothing() {
        let replay = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000)
        let payload = UnsafeMutableRawBufferPointer.allocate(byteCount: 160, alignment: 1)
        defer { payload.deallocate() }
        payload.initializeMemory(as: UInt8.self, repeating: 0x55)
        var sequence: UInt16 = 0
        var heard = 0
        func receive(_ count: Int) {
            for _ in 0..<count {
                // Every 25th packet lost, a little jitter: concealment and stretching run too.
                if sequence % 25 != 24 {
                    replay.receive(
                        sequenceNumber: sequence, timestamp: UInt32(sequence) &* 160, marker: false, payloadType: 0,
                        payload: UnsafeRawBufferPointer(payload),
                        arrivalMilliseconds: Double(sequence) * 20 + Double(sequence % 7) * 3
                    ) { heard += $0.count }
                }
                sequence &+= 1
            }
        }
        receive(500)
        let fewest = (0..<20).map { _ in AllocationCounter.counting { receive(50) }.allocations }.min() ?? .max
        #expect(fewest == 0)
        #expect(heard > 500 * 160)
    }

    /// Digits sent as RFC 4733 events in place of audio (10 of every 50 packets), played as
    /// tones by the replay's buffer: nothing allocated either (in an optimised build).
    @Test func replayingTelephoneEventsAllocatesNothing() {
        var configuration = JitterBufferConfiguration()
        configuration.telephoneEvents = [TelephoneEventFormat(payloadType: 101, clockRate: 8000)]
        let replay = StreamPlayoutReplay(codec: G711Decoder(law: .muLaw), clockRate: 8000, configuration: configuration)
        let audio = UnsafeMutableRawBufferPointer.allocate(byteCount: 160, alignment: 1)
        let event = UnsafeMutableRawBufferPointer.allocate(byteCount: DTMFEventPayload.byteCount, alignment: 1)
        defer {
            audio.deallocate()
            event.deallocate()
        }
        audio.initializeMemory(as: UInt8.self, repeating: 0x55)
        var sequence: UInt16 = 0
        var heard = 0
        func receive(_ count: Int) {
            for _ in 0..<count {
                let arrival = Double(sequence) * 20 + Double(sequence % 7) * 3
                let inDigit = sequence % 50 >= 40
                if inDigit {
                    let start = sequence - sequence % 50 + 40
                    let payload = DTMFEventPayload(
                        event: UInt8(sequence / 50 % 10), isEnd: sequence % 50 == 49, volume: 10, duration: (sequence - start + 1) &* 160)
                    _ = try? payload.write(into: event)
                    replay.receiveTelephoneEvent(
                        sequenceNumber: sequence, timestamp: UInt32(start) &* 160, marker: sequence == start, payloadType: 101,
                        payload: UnsafeRawBufferPointer(event), arrivalMilliseconds: arrival
                    ) { heard += $0.count }
                } else {
                    replay.receive(
                        sequenceNumber: sequence, timestamp: UInt32(sequence) &* 160, marker: false, payloadType: 0,
                        payload: UnsafeRawBufferPointer(audio), arrivalMilliseconds: arrival
                    ) { heard += $0.count }
                }
                sequence &+= 1
            }
        }
        receive(500)
        let fewest = (0..<20).map { _ in AllocationCounter.counting { receive(50) }.allocations }.min() ?? .max
        #if DEBUG
            // A debug build's unspecialised generic code allocates once per insert once the
            // buffer has telephone-event formats (its format lookup); the promise is for an
            // optimised build, in which `scripts/test.sh` runs this test.
            #expect(fewest <= 50)
        #else
            #expect(fewest == 0)
        #endif
        #expect(heard > 500 * 160)
        #expect(replay.toneSamples >= 10 * 10 * 160, "every digit played as its tone")
    }
}
