/// What a replay window says of a packet index.
enum SRTPReplayVerdict {
    /// Not seen yet: the packet may be accepted.
    case fresh
    /// Seen already, inside the window.
    case replayed
    /// Older than the window: it cannot be checked, so it is refused.
    case tooOld
}

/// The SRTP packet index of one SSRC and the window of recently received indices
/// (RFC 3711 §3.3.1–3.3.2 and Appendix A), with libsrtp's arithmetic so both agree packet for
/// packet: the highest 48-bit index, and one bit per index for the last `length` of them.
///
/// The bits live in a ring of `wordCount` words owned by the ``SRTPStreamTable``; bit
/// `index % (64 × wordCount)` stands for `index`.
struct SRTPReplayWindow {
    /// The highest index received (or protected), ROC ‖ SEQ; 0 before the first packet.
    private(set) var index: UInt64 = 0
    private let bits: UnsafeMutablePointer<UInt64>
    private let bitMask: UInt64
    private let length: Int64

    /// A window of `length` indices over a ring of `wordCount` words (a power of two, holding at
    /// least `length` bits), all clear.
    init(length: Int, bits: UnsafeMutablePointer<UInt64>, wordCount: Int) {
        self.bits = bits
        self.length = Int64(length)
        bitMask = UInt64(wordCount * 64 - 1)
        bits.update(repeating: 0, count: wordCount)
    }

    /// The index of a packet with sequence number `sequence`, and how far it is ahead of the
    /// highest index (negative when behind): RFC 3711 Appendix A's guess of the ROC, as
    /// libsrtp's `srtp_rdbx_estimate_index` makes it.
    func estimate(sequence: UInt16) -> (index: UInt64, delta: Int64) {
        guard index > 0x8000 else {
            return (UInt64(sequence), Int64(sequence) - Int64(index))
        }
        let rolloverCounter = UInt32(truncatingIfNeeded: index >> 16)
        let highest = Int64(UInt16(truncatingIfNeeded: index))
        let received = Int64(sequence)
        var guessed = rolloverCounter
        let delta: Int64
        if highest < 0x8000 {
            if received - highest > 0x8000 {
                guessed = rolloverCounter &- 1
                delta = received - highest - 0x10000
            } else {
                delta = received - highest
            }
        } else if highest - 0x8000 > received {
            guessed = rolloverCounter &+ 1
            delta = received - highest + 0x10000
        } else {
            delta = received - highest
        }
        return (UInt64(guessed) << 16 | UInt64(sequence), delta)
    }

    /// Whether the packet at `guess`, `delta` ahead of the highest index, is new.
    func verdict(index guess: UInt64, delta: Int64) -> SRTPReplayVerdict {
        if delta > 0 { return .fresh }
        if delta <= -length { return .tooOld }
        return isSet(guess) ? .replayed : .fresh
    }

    /// Records the packet at `guess`, `delta` ahead of the highest index, as received.
    mutating func record(index guess: UInt64, delta: Int64) {
        if delta > 0 {
            let ringBits = bitMask + 1
            if UInt64(delta) >= ringBits {
                bits.update(repeating: 0, count: Int(ringBits / 64))
            } else {
                var cleared = index
                for _ in 0..<delta {
                    cleared &+= 1
                    bits[Int((cleared & bitMask) >> 6)] &= ~(1 << (cleared & 63))
                }
            }
            index &+= UInt64(delta)
            set(index)
        } else {
            set(guess)
        }
    }

    /// Sets the rollover counter, keeping the sequence number, and forgets every index
    /// received (libsrtp's `srtp_rdbx_set_roc`).
    mutating func setRolloverCounter(_ rolloverCounter: UInt32) {
        index = UInt64(rolloverCounter) << 16 | (index & 0xFFFF)
        bits.update(repeating: 0, count: Int((bitMask + 1) / 64))
    }

    private func isSet(_ index: UInt64) -> Bool {
        bits[Int((index & bitMask) >> 6)] & (1 << (index & 63)) != 0
    }

    private func set(_ index: UInt64) {
        bits[Int((index & bitMask) >> 6)] |= 1 << (index & 63)
    }
}

/// The SRTCP indices of one SSRC: the next one we send and the window of 128 received ones
/// (RFC 3711 §3.4), with libsrtp's arithmetic (`srtp_rdb_t`: a fixed 128-index window whose
/// start moves up as newer indices arrive).
struct SRTCPIndexState {
    /// The highest SRTCP index (31 bits) there is.
    static let maximumIndex: UInt32 = 0x7FFF_FFFF
    private static let windowLength: UInt32 = 128

    /// The last index protected; the first packet sent carries 1, as libsrtp's do.
    private(set) var sentIndex: UInt32 = 0
    private var windowStart: UInt32 = 0
    private var received: UInt128 = 0

    /// The index for the next packet sent, or `nil` when the 31-bit space is used up and the
    /// key must change (RFC 3711 §9.2).
    mutating func nextSentIndex() -> UInt32? {
        guard sentIndex < Self.maximumIndex else { return nil }
        sentIndex += 1
        return sentIndex
    }

    /// Whether a packet of SRTCP index `index` is new.
    func verdict(index: UInt32) -> SRTPReplayVerdict {
        if index >= windowStart &+ Self.windowLength { return .fresh }
        if index < windowStart { return .tooOld }
        return received >> (index - windowStart) & 1 == 1 ? .replayed : .fresh
    }

    /// Records index `index` as received (it passed ``verdict(index:)``).
    mutating func record(index: UInt32) {
        let offset = index - windowStart
        if offset < Self.windowLength {
            received |= 1 << offset
        } else {
            let shift = offset - (Self.windowLength - 1)
            received = shift >= Self.windowLength ? 0 : received >> shift
            received |= 1 << (Self.windowLength - 1)
            windowStart += shift
        }
    }
}
