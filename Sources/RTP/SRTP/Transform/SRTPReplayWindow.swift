/// Where a packet falls against a stream's highest index.
struct SRTPIndexEstimate: Equatable {
    /// A jump to a signalled rollover counter, far ahead of or behind the highest index.
    enum Jump {
        case ahead
        case behind
    }

    /// The packet's 48-bit index, ROC ‖ SEQ.
    var index: UInt64
    /// How far the index is ahead of the highest one (negative when behind), without a jump.
    var delta: Int64
    /// The jump, if the index comes from a signalled rollover counter that far away.
    var jump: Jump? = nil
}

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
    /// A rollover counter set for the next packets, 0 for none.
    private var pendingRolloverCounter: UInt32 = 0
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
    /// libsrtp's `srtp_rdbx_estimate_index` makes it; or, while a rollover counter set by
    /// ``setRolloverCounter(_:)`` is pending, that counter with the sequence number, as
    /// libsrtp 2.5's `srtp_estimate_index` takes it.
    func estimate(sequence: UInt16) -> SRTPIndexEstimate {
        if pendingRolloverCounter != 0 {
            let guess = UInt64(pendingRolloverCounter) << 16 | UInt64(sequence)
            if guess > index && guess - index > 0x8000 { return SRTPIndexEstimate(index: guess, delta: 0, jump: .ahead) }
            if guess < index && index - guess > 0x8000 { return SRTPIndexEstimate(index: guess, delta: 0, jump: .behind) }
            return SRTPIndexEstimate(index: guess, delta: Int64(guess) - Int64(index))
        }
        guard index > 0x8000 else {
            return SRTPIndexEstimate(index: UInt64(sequence), delta: Int64(sequence) - Int64(index))
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
        return SRTPIndexEstimate(index: UInt64(guessed) << 16 | UInt64(sequence), delta: delta)
    }

    /// Whether the packet of `estimate` is new.
    func verdict(_ estimate: SRTPIndexEstimate) -> SRTPReplayVerdict {
        switch estimate.jump {
        case .ahead: return .fresh
        case .behind: return .tooOld
        case nil: break
        }
        if estimate.delta > 0 { return .fresh }
        if estimate.delta <= -length { return .tooOld }
        return isSet(estimate.index) ? .replayed : .fresh
    }

    /// Records the packet of `estimate` as received.
    mutating func record(_ estimate: SRTPIndexEstimate) {
        if estimate.jump == .ahead {
            index = estimate.index
            pendingRolloverCounter = 0
            bits.update(repeating: 0, count: Int((bitMask + 1) / 64))
            set(index)
        } else if estimate.delta > 0 {
            let ringBits = bitMask + 1
            if UInt64(estimate.delta) >= ringBits {
                bits.update(repeating: 0, count: Int(ringBits / 64))
            } else {
                var cleared = index
                for _ in 0..<estimate.delta {
                    cleared &+= 1
                    bits[Int((cleared & bitMask) >> 6)] &= ~(1 << (cleared & 63))
                }
            }
            index &+= UInt64(estimate.delta)
            set(index)
        } else {
            set(estimate.index)
        }
    }

    /// Makes the next packets take `rolloverCounter` as their ROC, as libsrtp 2.5's
    /// `srtp_set_stream_roc` does: a packet whose index is then more than 2^15 ahead of the
    /// highest moves the stream there (and forgets the window), one within 2^15 is checked
    /// against the window as usual, one further behind is refused as too old. 0 sets nothing.
    mutating func setRolloverCounter(_ rolloverCounter: UInt32) {
        pendingRolloverCounter = rolloverCounter
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
