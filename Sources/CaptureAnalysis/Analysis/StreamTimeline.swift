import QualityMetrics
import PlayoutLab
/// What one stream did during one interval of the capture: the material of the report's plots.
public struct TimelineBucket: Sendable, Hashable, Codable {
    /// The interval's start, in seconds since the stream's first packet.
    public var startSeconds: Double
    /// The interval's length in seconds (1 unless a long stream's timeline was coarsened).
    public var durationSeconds: Double
    /// Packets that arrived in the interval, duplicates included.
    public var packets: Int = 0
    /// Packets found missing in the interval: sequence gaps detected then, including packets
    /// that arrive later (those count again in ``late``, as a receiver without a jitter buffer
    /// would discard them).
    public var lost: Int = 0
    /// Packets that arrived late (after a later one) or twice.
    public var late: Int = 0
    /// The largest Wireshark delta between consecutive packets, in milliseconds.
    public var maximumDeltaMilliseconds: Double = 0
    /// The mean Wireshark delta, in milliseconds (0 without regular packets).
    public var meanDeltaMilliseconds: Double = 0
    /// The largest RFC 3550 interarrival jitter seen, in milliseconds (0 without a clock).
    public var maximumJitterMilliseconds: Double = 0
    /// The E-model MOS-CQE for the interval's loss and jitter, `nil` without a known codec.
    public var meanOpinionScore: Double?

    var deltaCount = 0
    var deltaSum: Double = 0

    enum CodingKeys: String, CodingKey {
        case startSeconds = "t_s"
        case durationSeconds = "duration_s"
        case packets, lost, late
        case maximumDeltaMilliseconds = "delta_ms_max"
        case meanDeltaMilliseconds = "delta_ms_mean"
        case maximumJitterMilliseconds = "jitter_ms_max"
        case meanOpinionScore = "mos_cqe"
    }

    /// An empty interval.
    init(startSeconds: Double, durationSeconds: Double) {
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
    }

    /// The packets that should have arrived in the interval: received (without late ones) plus lost.
    public var expected: Int { max(packets - late, 0) + lost }

    /// The interval's loss in percent of ``expected``.
    public var lossPercent: Double {
        expected == 0 ? 0 : Double(lost) * 100 / Double(expected)
    }

    mutating func includeDelta(_ milliseconds: Double) {
        deltaCount += 1
        deltaSum += milliseconds
        maximumDeltaMilliseconds = max(maximumDeltaMilliseconds, milliseconds)
        meanDeltaMilliseconds = deltaSum / Double(deltaCount)
    }

    /// Takes in the next interval, which must follow this one.
    mutating func absorb(_ next: TimelineBucket) {
        durationSeconds += next.durationSeconds
        packets += next.packets
        lost += next.lost
        late += next.late
        deltaCount += next.deltaCount
        deltaSum += next.deltaSum
        maximumDeltaMilliseconds = max(maximumDeltaMilliseconds, next.maximumDeltaMilliseconds)
        meanDeltaMilliseconds = deltaCount == 0 ? 0 : deltaSum / Double(deltaCount)
        maximumJitterMilliseconds = max(maximumJitterMilliseconds, next.maximumJitterMilliseconds)
    }
}

/// A stream's per-interval record in bounded memory: one-second buckets until ``capacity``
/// are in use, then neighbours are merged and the interval doubles, so any stream length
/// fits in at most ``capacity`` buckets.
struct StreamTimeline {
    let capacity: Int
    private(set) var buckets: [TimelineBucket] = []
    private(set) var bucketSeconds = 1

    init(capacity: Int) {
        self.capacity = max(capacity, 2)
        buckets.reserveCapacity(self.capacity)
    }

    /// The bucket for an event `elapsedNanoseconds` after the stream's first packet (negative
    /// times, from a capture that is not in time order, fall in the first bucket).
    mutating func withBucket(atNanoseconds elapsedNanoseconds: Int64, _ body: (inout TimelineBucket) -> Void) {
        let second = max(elapsedNanoseconds, 0) / 1_000_000_000
        var index = Int(second / Int64(bucketSeconds))
        while index >= capacity {
            coarsen()
            index = Int(second / Int64(bucketSeconds))
        }
        while buckets.count <= index {
            buckets.append(
                TimelineBucket(
                    startSeconds: Double(buckets.count * bucketSeconds), durationSeconds: Double(bucketSeconds)))
        }
        body(&buckets[index])
    }

    /// Halves the number of buckets by merging neighbours.
    private mutating func coarsen() {
        var merged: [TimelineBucket] = []
        merged.reserveCapacity(capacity)
        var index = 0
        while index < buckets.count {
            var bucket = buckets[index]
            if index + 1 < buckets.count { bucket.absorb(buckets[index + 1]) }
            bucket.durationSeconds = Double(bucketSeconds * 2)
            merged.append(bucket)
            index += 2
        }
        buckets = merged
        bucketSeconds *= 2
    }
}
