import Jitter
import RTP

/// Which media time a sender sent, as far as the packets that arrived tell, in fixed memory:
/// runs of unwrapped RTP time from a talkspurt's first packet to its last, the most recent
/// ``runCapacity`` of them.
///
/// Packets missing from a sequence gap count as sent right after the packet before the gap
/// (lost media); media time the sequence numbers do not explain (a timestamp jump beyond the
/// missing packets, DTX) was not sent and ends a run.
struct SentMediaCoverage {
    /// Runs kept besides the current one.
    static let runCapacity = 64

    /// RTP ticks in one packet, learnt from consecutive packets.
    private(set) var frameTicks: UInt64
    private let maximumFrameTicks: UInt64
    private(set) var highestSequence: UInt64 = 0
    private(set) var highestTimestamp: UInt64 = 0
    private var current: Range<UInt64>?
    private var runs: [Range<UInt64>]
    private var nextRun = 0

    /// Coverage for a stream of `clockRate` Hz, assuming 20 ms packets until it learns better.
    init(clockRate: Int) {
        let rate = UInt64(max(clockRate, 1))
        frameTicks = max(rate / 50, 1)
        maximumFrameTicks = rate * 120 / 1000
        runs = [Range<UInt64>](repeating: 0..<0, count: Self.runCapacity)
    }

    /// The end of what the arrivals so far tell: media time from here on is not known yet.
    var knownEnd: UInt64 { current?.upperBound ?? 0 }

    /// Takes in a media packet (unwrapped sequence number and timestamp), in arrival order.
    mutating func record(sequence: UInt64, timestamp: UInt64) {
        guard let run = current else {
            current = timestamp..<(timestamp &+ frameTicks)
            highestSequence = sequence
            highestTimestamp = timestamp
            return
        }
        guard sequence > highestSequence else { return }  // reordered: inside what is known
        let step = sequence - highestSequence
        if step == 1, timestamp > highestTimestamp, timestamp - highestTimestamp <= maximumFrameTicks {
            frameTicks = timestamp - highestTimestamp
        }
        let explained = highestTimestamp &+ step &* frameTicks
        if timestamp >= highestTimestamp, timestamp <= explained &+ frameTicks / 2 {
            current = run.lowerBound..<max(run.upperBound, timestamp &+ frameTicks)
        } else {
            runs[nextRun] = run.lowerBound..<max(run.upperBound, min(explained, timestamp))
            nextRun = (nextRun + 1) % Self.runCapacity
            current = timestamp..<(timestamp &+ frameTicks)
        }
        highestSequence = sequence
        highestTimestamp = max(highestTimestamp, timestamp)
    }

    /// Takes in a packet of another payload (a telephone event) that takes a sequence number
    /// without carrying media: the number is not a gap.
    mutating func skip(sequence: UInt64) {
        if current != nil, sequence > highestSequence { highestSequence = sequence }
    }

    /// Whether the sender sent media at `timestamp` (as far as the runs kept tell).
    func covers(_ timestamp: UInt64) -> Bool {
        if current?.contains(timestamp) == true { return true }
        return runs.contains { $0.contains(timestamp) }
    }

    /// `timestamp` (a wire value) unwrapped to the value nearest the highest one seen.
    func unwrap(_ timestamp: UInt32) -> UInt64 {
        RTPTimestamp(timestamp).extended(near: highestTimestamp)
    }
}
