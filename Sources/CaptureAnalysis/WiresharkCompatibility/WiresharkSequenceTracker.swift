import QualityMetrics
import PlayoutLab
/// Wireshark 4.0's sequence-number bookkeeping for one RTP stream: the wrap counter behind
/// tshark's "Lost" and the in-order check behind its "Problems" mark (`rtppacket_analyse` in
/// `ui/tap-rtp-analysis.c`).
///
/// Unlike RFC 3550 Appendix A.1 it keeps no highest sequence number: "Lost" uses the *last*
/// packet's number, and a wrap is counted when a number below the first one arrives with an
/// in-sequence timestamp (or 0 right after 65535), once until numbers climb past the first
/// one again.
struct WiresharkSequenceTracker: Sendable, Hashable {
    private var start: UInt16 = 0
    private var stop: UInt16 = 0
    /// The last sequence number accepted as in order (Wireshark's `seq_num`).
    private var lastInOrder: UInt16 = 0
    private var cycles: Int64 = 0
    private var isInWrap = false

    init() {}

    init(first: UInt16) {
        start = first
        stop = first
        lastInOrder = first
    }

    /// `(last + 65536 × wraps) − first + 1`, truncated to 32 bits as Wireshark's `guint32`.
    var expectedPackets: UInt32 {
        UInt32(truncatingIfNeeded: Int64(stop) + cycles * 0x10000 - Int64(start) + 1)
    }

    /// Records the next packet's sequence number; returns whether Wireshark flags it as a
    /// wrong sequence number (a gap before it, or late, or a duplicate).
    mutating func record(_ number: UInt16, timestampInSequence: Bool) -> Bool {
        countWrap(number, timestampInSequence: timestampInSequence)
        stop = number
        return checkOrder(number, timestampInSequence: timestampInSequence)
    }

    private mutating func countWrap(_ number: UInt16, timestampInSequence: Bool) {
        guard timestampInSequence else { return }
        if !isInWrap && (number < start || (number == 0 && stop == 65535)) {
            cycles += 1
            isInWrap = true
        } else if isInWrap && number > start {
            isInWrap = false
        }
    }

    /// The in-order test, in Wireshark's C integer arithmetic (16-bit values promoted to `int`).
    private mutating func checkOrder(_ number: UInt16, timestampInSequence: Bool) -> Bool {
        let previous = Int(lastInOrder)
        let current = Int(number)
        if timestampInSequence && (previous + 1 == current || (previous == 65535 && current == 0)) {
            lastInOrder = number
            return false
        }
        if timestampInSequence && (previous + 1 < current || previous - current > 0xFF00) {
            // A gap; or numbers far below the last one, taken as a wrap whose packets were lost.
            lastInOrder = number
            return true
        }
        // Late or duplicate (the remaining case, previous + 1 > current, or any packet with a
        // wrong timestamp that is not ahead of the last one).
        return previous + 1 > current
    }
}
