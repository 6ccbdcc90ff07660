import Jitter

/// The quality of a playout, computed from what was played (the trace and the playout
/// records), never from the buffer's own statistics.
///
/// A pull "expects media" when its first sample falls inside a packet the sender sent (not in
/// a DTX pause), unless it conceals after that packet was played and the sender fell silent
/// after it (concealment while waiting at the end of a talkspurt is not missing media). It
/// "played" when that packet was decoded (or recovered) and the decision was decoded audio;
/// otherwise it concealed. Playout delay is measured at each pull that played:
/// the pull time minus the send time of the sample being played.
public struct PlayoutScore: Sendable, Hashable {
    /// Mean playout delay in milliseconds (send to play).
    public var meanDelayMilliseconds: Double
    /// Median playout delay in milliseconds.
    public var p50DelayMilliseconds: Double
    /// 95th percentile of the playout delay in milliseconds.
    public var p95DelayMilliseconds: Double
    /// 99th percentile of the playout delay in milliseconds.
    public var p99DelayMilliseconds: Double
    /// Packets that never arrived, in percent of those sent.
    public var networkLossPercent: Double
    /// Packets that arrived but were not played, in percent of those sent.
    public var lateLossPercent: Double
    /// Packets not played, for whatever reason, in percent of those sent.
    public var effectiveLossPercent: Double
    /// Pulls that concealed while media was expected, in percent of those expecting media.
    public var concealmentPercent: Double
    /// Runs of such concealing pulls.
    public var concealmentEvents: Int
    /// Runs of 150 ms or more.
    public var interruptions: Int
    /// Audio added or removed by time-stretching, in percent of the audio played.
    public var timeStretchPercent: Double
    /// For each path stall found in the trace, how long after it ended the playout delay came
    /// back within 20 ms of its median over the 2 s before the stall; `nil` if it never did.
    public var recoveryMilliseconds: [Double?]
    /// Median wall time of a pull, in microseconds.
    public var medianPullMicroseconds: Double
    /// 99th percentile of the wall time of a pull, in microseconds.
    public var p99PullMicroseconds: Double

    /// Scores `records` (from ``PlayoutSimulator/play(_:)``) against the trace they replayed.
    /// Pulls after the last decoded packet (the end of the trace) are left out.
    public init(trace: [SimulatedPacket], records allRecords: [PlayoutRecord], clockRate: Int, samplesPerFrame: Int) {
        let lastDecoding = allRecords.lastIndex { !$0.decodedSequenceNumbers.isEmpty } ?? -1
        let records = allRecords[...lastDecoding]
        let sent = Self.firstCopies(trace)
        let arrived = Set(trace.filter { $0.arrivalMilliseconds != nil }.map(\.sequenceNumber))
        let played = Set(records.flatMap(\.decodedSequenceNumbers)).intersection(sent.map(\.sequenceNumber))
        let sentCount = Double(max(sent.count, 1))
        networkLossPercent = 100 * Double(sent.count - arrived.count) / sentCount
        lateLossPercent = 100 * Double(arrived.count - played.intersection(arrived).count) / sentCount
        effectiveLossPercent = 100 * Double(sent.count - played.count) / sentCount

        let ticksPerMillisecond = Double(clockRate) / 1000
        let pullTicks = 10 * ticksPerMillisecond
        var delays: [(time: Double, delay: Double)] = []
        var tally = PlayoutTally()
        for (index, record) in zip(records.indices, records) {
            let decodedAudio = record.kind != .conceal && record.kind != .comfortNoise
            guard let covering = Self.covering(record.rtpTimestamp, in: sent, samplesPerFrame: samplesPerFrame),
                decodedAudio || !played.contains(sent[covering].sequenceNumber)
                    || Self.continues(sent, after: covering, samplesPerFrame: samplesPerFrame)
            else {
                tally.recordNoMediaExpected()
                continue
            }
            let packet = sent[covering]
            if decodedAudio, played.contains(packet.sequenceNumber) {
                let sendTime = packet.sendMilliseconds + Double(record.rtpTimestamp - packet.rtpTimestamp) / ticksPerMillisecond
                delays.append((record.timeMilliseconds, record.timeMilliseconds - sendTime))
                tally.recordPlayed()
            } else {
                tally.recordConcealed()
            }
            if record.kind == .accelerate || record.kind == .decelerate, index + 1 < records.endIndex {
                let advance = Double(Int64(bitPattern: records[index + 1].rtpTimestamp &- record.rtpTimestamp))
                tally.recordStretch(advanceTicks: advance, pullTicks: pullTicks)
            }
        }
        let sorted = delays.map(\.delay).sorted()
        meanDelayMilliseconds = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        p50DelayMilliseconds = Self.percentile(sorted, 0.50)
        p95DelayMilliseconds = Self.percentile(sorted, 0.95)
        p99DelayMilliseconds = Self.percentile(sorted, 0.99)
        concealmentPercent = tally.concealmentPercent
        concealmentEvents = tally.concealmentEvents
        interruptions = tally.interruptions
        timeStretchPercent = tally.timeStretchPercent(pullTicks: pullTicks)
        recoveryMilliseconds = Self.stalls(in: sent).map { stall in Self.recovery(after: stall, delays: delays) }
        let pulls = records.map(\.pullMicroseconds).sorted()
        medianPullMicroseconds = Self.percentile(pulls, 0.5)
        p99PullMicroseconds = Self.percentile(pulls, 0.99)
    }

    /// The first row of each sequence number, in send order.
    private static func firstCopies(_ trace: [SimulatedPacket]) -> [SimulatedPacket] {
        var seen = Set<UInt64>()
        return trace.filter { seen.insert($0.sequenceNumber).inserted }.sorted { $0.rtpTimestamp < $1.rtpTimestamp }
    }

    /// Whether the sender sent more media right after packet `index` (no DTX pause, not the end).
    private static func continues(_ sent: [SimulatedPacket], after index: Int, samplesPerFrame: Int) -> Bool {
        index + 1 < sent.count && sent[index + 1].rtpTimestamp - sent[index].rtpTimestamp <= UInt64(samplesPerFrame)
    }

    /// The index of the sent packet whose media covers `timestamp`, by binary search.
    private static func covering(_ timestamp: UInt64, in sent: [SimulatedPacket], samplesPerFrame: Int) -> Int? {
        var low = 0, high = sent.count
        while low < high {
            let middle = (low + high) / 2
            if sent[middle].rtpTimestamp <= timestamp { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        return timestamp - sent[low - 1].rtpTimestamp < UInt64(samplesPerFrame) ? low - 1 : nil
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(Int(fraction * Double(sorted.count)), sorted.count - 1)]
    }

    /// Path stalls: runs of at least 5 consecutive arrived packets whose one-way delay exceeds
    /// the trace's median by more than 100 ms. Returns each stall's start (the first delayed
    /// packet's send time plus the median delay) and end (its last packet's arrival).
    static func stalls(in sent: [SimulatedPacket]) -> [(start: Double, end: Double)] {
        let arrived = sent.compactMap { packet in packet.arrivalMilliseconds.map { (packet.sendMilliseconds, $0) } }
        let delays = arrived.map { $0.1 - $0.0 }.sorted()
        guard !delays.isEmpty else { return [] }
        let median = delays[delays.count / 2]
        var stalls: [(start: Double, end: Double)] = []
        var runStart: Int?
        for index in 0...arrived.count {
            let delayed = index < arrived.count && arrived[index].1 - arrived[index].0 > median + 100
            if delayed, runStart == nil { runStart = index }
            if !delayed, let start = runStart {
                if index - start >= 5 {
                    stalls.append((arrived[start].0 + median, arrived[start..<index].map(\.1).max() ?? arrived[index - 1].1))
                }
                runStart = nil
            }
        }
        return stalls
    }

    private static func recovery(after stall: (start: Double, end: Double), delays: [(time: Double, delay: Double)]) -> Double? {
        let before = delays.filter { $0.time >= stall.start - 2000 && $0.time < stall.start }.map(\.delay).sorted()
        guard !before.isEmpty else { return nil }
        let median = before[before.count / 2]
        guard let back = delays.first(where: { $0.time >= stall.end && abs($0.delay - median) <= 20 }) else { return nil }
        return back.time - stall.end
    }
}
