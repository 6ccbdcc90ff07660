import Codecs
import Jitter
import Testing

/// ``TaggedJitterBuffer/insertTagged(_:sequence:samples:codecBytes:arrivalMilliseconds:)``
/// writes each payload into the store's one lendable slot. That it plays what the live buffer
/// plays is `ReplayMatchesLiveBufferTests` (PlayoutLab's replay inserts through it); here, the
/// slot always comes back: a payload too long for the store is not inserted, and every packet
/// after it still is.
@Suite struct TaggedInsertTests {
    @Test func aPayloadTooLongForTheStoreIsSkippedAndTheSlotComesBack() {
        var configuration = JitterBufferConfiguration()
        configuration.maximumPayloadBytes = TaggedPayloadDecoder.tagBytes + 160
        var buffer = TaggedJitterBuffer(
            decoder: TaggedPayloadDecoder(codec: G711Decoder(law: .muLaw), clockRate: 8000), configuration: configuration)
        let pcm = UnsafeMutableBufferPointer<Int16>.allocate(capacity: buffer.samplesPerPull)
        defer { pcm.deallocate() }
        pcm.initialize(repeating: 0)
        let frame = [UInt8](repeating: 0x7F, count: 160)
        let tooLong = [UInt8](repeating: 0x7F, count: 161)
        var played: [UInt64] = []
        var now = 0.0
        func pull(until time: Double) {
            while now < time {
                _ = buffer.pull(into: pcm, nowMilliseconds: now)
                _ = buffer.drainPlayed { played.append($0) }
                now += 10
            }
        }
        // 20 ms packets on time; packet 3's payload is one byte over the store's limit.
        for index in 0..<30 {
            let arrival = Double(index) * 20
            pull(until: arrival)
            let bytes = index == 3 ? tooLong : frame
            bytes.withUnsafeBytes { bytes in
                buffer.insertTagged(
                    IncomingPacket(
                        sequenceNumber: UInt16(index), timestamp: UInt32(index * 160), payloadType: 0, ssrc: 0,
                        payload: UnsafeRawBufferPointer(start: nil, count: 0)),
                    sequence: UInt64(1000 + index), samples: 160, codecBytes: bytes, arrivalMilliseconds: arrival)
            }
        }
        pull(until: 30 * 20 + 500)
        let expected: [UInt64] = (0..<30).filter { $0 != 3 }.map { UInt64(1000 + $0) }
        #expect(played == expected)
    }
}
