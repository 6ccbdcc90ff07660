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
        let turn: UInt64 = 65536  // the room left below the first value
        #expect(unwrapper.unwrap(SequenceNumber(65534)) == turn + 65534)
        #expect(unwrapper.unwrap(SequenceNumber(65535)) == turn + 65535)
        #expect(unwrapper.unwrap(SequenceNumber(1)) == turn + 65537)
        #expect(unwrapper.unwrap(SequenceNumber(0)) == turn + 65536)  // late, from just after the wrap
        #expect(unwrapper.unwrap(SequenceNumber(65533)) == turn + 65533)  // late, from before the wrap
        #expect(unwrapper.highest == turn + 65537)
        var value: UInt64 = turn + 65537
        for step in 0..<(3 * 65536 / 1000) {
            value += 1000
            #expect(unwrapper.unwrap(SequenceNumber(UInt16(truncatingIfNeeded: value))) == value, "step \(step)")
        }
    }

    @Test("Timestamp unwrapping across the 32-bit wrap; earlier than the first stays above 0")
    func unwrapTimestamp() {
        var unwrapper = TimestampUnwrapper()
        let turn: UInt64 = 1 << 32
        #expect(unwrapper.unwrap(RTPTimestamp(0xFFFF_FF00)) == turn + 0xFFFF_FF00)
        #expect(unwrapper.unwrap(RTPTimestamp(0x0000_00A0)) == 2 * turn + 0xA0)
        var fresh = TimestampUnwrapper()
        #expect(fresh.unwrap(RTPTimestamp(10)) == turn + 10)
        #expect(fresh.unwrap(RTPTimestamp(0xFFFF_FFFF)) == turn - 1)
        #expect(fresh.reset(to: RTPTimestamp(5)) == turn + 5 && fresh.highest == turn + 5)
    }

    @Test("Reordering around a reset: later, across the wrap, and before the first value")
    func unwrapAfterReset() {
        var unwrapper = SequenceUnwrapper()
        let first = unwrapper.reset(to: SequenceNumber(65_530))
        let values = [65_534, 3, 65_535, 10, 65_000].map { unwrapper.unwrap(SequenceNumber($0)) }
        #expect(values.map { Int64(bitPattern: $0 &- first) } == [4, 9, 5, 16, -530])
    }

    @Test("Halfway is behind: the same tie as RFC 1982 comparison")
    func unwrapHalfway() {
        var unwrapper = SequenceUnwrapper()
        let first = unwrapper.unwrap(SequenceNumber(100))
        #expect(unwrapper.unwrap(SequenceNumber(100 &+ 32767)) == first + 32767)
        #expect(unwrapper.unwrap(SequenceNumber(100 &+ 32767 &+ 32768)) == first + 32767 - 32768)
    }

    @Test("A wire value extended against a reference: the nearest one, across the wrap both ways")
    func extendedNearReference() {
        #expect(RTPTimestamp(0x10).extended(near: 0x1_FFFF_FFF0) == 0x2_0000_0010)
        #expect(RTPTimestamp(0xFFFF_FFF0).extended(near: 0x2_0000_0010) == 0x1_FFFF_FFF0)
        #expect(SequenceNumber(5).extended(near: 0x3_0005) == 0x3_0005)
        #expect(SequenceNumber(0).extended(near: 3) == 0)
    }
}
