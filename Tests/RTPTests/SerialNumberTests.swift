import Testing
import RTP

@Suite("Wrapping sequence numbers and timestamps")
struct SerialNumberTests {
    @Test("Distance and ordering across the wrap")
    func distanceAcrossWrap() {
        let last = SequenceNumber(65535)
        let first = SequenceNumber(0)
        #expect(last.distance(to: first) == 1)
        #expect(first.distance(to: last) == -1)
        #expect(last < first)
        #expect(!(first < last))
        #expect(SequenceNumber(100).distance(to: SequenceNumber(100 &+ 32767)) == 32767)
        #expect(SequenceNumber(100).distance(to: SequenceNumber(100 &+ 32768)) == -32768)
        #expect(last.advanced(by: 2) == SequenceNumber(1))
        #expect(first.advanced(by: -1) == last)
        #expect(RTPTimestamp(.max).distance(to: RTPTimestamp(159)) == 160)
        #expect(RTPTimestamp(159).advanced(by: -160) == RTPTimestamp(.max))
        #expect(RTPTimestamp(0).distance(to: RTPTimestamp(0x8000_0000)) == -0x8000_0000)
    }

    @Test("Sequence unwrapping through several wraps, with a late packet before a wrap")
    func unwrapSequence() {
        var unwrapper = SequenceUnwrapper()
        #expect(unwrapper.unwrap(SequenceNumber(65534)) == 65534)
        #expect(unwrapper.unwrap(SequenceNumber(65535)) == 65535)
        #expect(unwrapper.unwrap(SequenceNumber(1)) == 65537)
        #expect(unwrapper.unwrap(SequenceNumber(0)) == 65536)  // late, from just after the wrap
        #expect(unwrapper.unwrap(SequenceNumber(65533)) == 65533)  // late, from before the wrap
        var value: Int64 = 65537
        for step in 0..<(3 * 65536 / 1000) {
            value += 1000
            #expect(unwrapper.unwrap(SequenceNumber(UInt16(truncatingIfNeeded: value))) == value, "step \(step)")
        }
    }

    @Test("Timestamp unwrapping across the 32-bit wrap; earlier than the first goes negative")
    func unwrapTimestamp() {
        var unwrapper = TimestampUnwrapper()
        #expect(unwrapper.unwrap(RTPTimestamp(0xFFFF_FF00)) == 0xFFFF_FF00)
        #expect(unwrapper.unwrap(RTPTimestamp(0x0000_00A0)) == 0x1_0000_00A0)
        var fresh = TimestampUnwrapper()
        #expect(fresh.unwrap(RTPTimestamp(10)) == 10)
        #expect(fresh.unwrap(RTPTimestamp(0xFFFF_FFFF)) == -1)
    }
}
