import Foundation
import Testing

/// What a sender that stalled once shows on the wire, from the packets an ``RTPTap`` saw: its
/// sequence-number steps, where its timestamps step by more than a frame, the stall (the longest
/// wait between two packets) and how far its media time moved against the arrivals across it.
struct StalledSenderOnTheWire {
    /// Every packet followed its predecessor's sequence number.
    let sequenceNumbersConsecutive: Bool
    /// The timestamp steps beyond one frame, in RTP units, in order.
    let timestampSkips: [Int]
    /// The index of the last packet before the stall.
    let stallIndex: Int
    /// The longest wait between two packets, in seconds: the stall.
    let longestWaitSeconds: Double
    /// How much later, against their timestamps, packets arrived after the stall than before it
    /// (the median of up to 50 packets each side), in milliseconds.
    let mediaTimeMovedMilliseconds: Double

    /// Reads `packets` (at least two) sent one frame of `frameUnits` apart on a `sampleRate` clock.
    init(_ packets: [RTPTap.Packet], frameUnits: Int, sampleRate: Int) {
        let pairs = zip(packets, packets.dropFirst())
        sequenceNumbersConsecutive = pairs.allSatisfy { $1.sequenceNumber &- $0.sequenceNumber == 1 }
        timestampSkips = pairs.map { Int($1.timestamp &- $0.timestamp) - frameUnits }.filter { $0 != 0 }
        let gaps = pairs.map { $1.arrivalSeconds - $0.arrivalSeconds }
        stallIndex = gaps.indices.max { gaps[$0] < gaps[$1] } ?? 0
        longestWaitSeconds = gaps[stallIndex]
        func offsetMilliseconds(_ slice: ArraySlice<RTPTap.Packet>) -> Double {
            let offsets = slice.map { $0.arrivalSeconds * 1000 - Double($0.timestamp &- packets[0].timestamp) * 1000 / Double(sampleRate) }
            return offsets.sorted()[offsets.count / 2]
        }
        mediaTimeMovedMilliseconds =
            offsetMilliseconds(packets[(stallIndex + 1)...min(packets.count - 1, stallIndex + 50)])
            - offsetMilliseconds(packets[max(0, stallIndex - 50)...stallIndex])
    }
}

/// The callee's playout delay around a stall of the caller: read 1.8, 2.2 and 2.6 s after the
/// readings began (as the call starts), then, once the stall was seen, 1.5 and 2.5 s after it.
struct CalleeDelaysAroundStall {
    /// The delays before the stall, milliseconds.
    let before: [Double]
    /// The delays after it, milliseconds.
    let after: [Double]
    /// Whether the stall was seen within the wait given.
    let stallSeen: Bool

    /// Reads `call`'s callee, waiting up to `seconds` for `stalled` to hold between the two sets.
    init(_ call: LoopbackCall, waitingUpTo seconds: Double, for stalled: () -> Bool) {
        let started = Date()
        func delay(at seconds: Double) -> Double {
            Thread.sleep(until: started.addingTimeInterval(seconds))
            return call.callee.playoutStatistics.currentDelayMilliseconds
        }
        before = [1.8, 2.2, 2.6].map(delay(at:))
        stallSeen = waitUntil(seconds: seconds, stalled)
        let stallEnded = Date().timeIntervalSince(started)
        after = [stallEnded + 1.5, stallEnded + 2.5].map(delay(at:))
    }

    /// The delay the call had settled at before the stall (the middle reading).
    var settled: Double { before.sorted()[1] }

    /// Expects every delay after the stall within `milliseconds` of ``settled``: the callee's
    /// delay came back to where it was.
    func expectCameBack(within milliseconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        for delay in after {
            #expect(abs(delay - settled) <= milliseconds, "callee delay \(settled) ms before the stall, \(after) ms after", sourceLocation: sourceLocation)
        }
    }
}
