import QualityMetrics
import RTP
import TestSupport
import Testing

/// A G.711 call at 50 packets a second, driven through real RFC 3550 reception statistics the
/// way a session feeds the monitor: each received packet is counted by the statistics, then
/// given to ``QualityMonitor/recordArrival(_:)``; a lost packet is never seen.
struct ScriptedCall {
    static let start = MediaTime(seconds: 1000)
    static let packet = MediaTime.milliseconds(20)
    static let pcmu = MonitoredCodec(encodingName: "PCMU", clockRate: 8000, packetDurationMilliseconds: 20)

    var monitor: QualityMonitor
    var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
    var sequence = SequenceNumber(40_000)
    var timestamp = RTPTimestamp(123_456)
    var now = ScriptedCall.start
    var reports: [QualityReport] = []
    /// The payload of each received packet, as the counters the monitor gets report it.
    let payloadOctetsPerPacket: Int64
    var payloadPackets: Int64 = 0

    init(
        codec: MonitoredCodec = ScriptedCall.pcmu, configuration: QualityMonitor.Configuration = .init(),
        jitterBufferMilliseconds: Double = 40, payloadOctetsPerPacket: Int64 = 160
    ) {
        self.payloadOctetsPerPacket = payloadOctetsPerPacket
        monitor = QualityMonitor(codec: codec, start: Self.start, configuration: configuration)
        var playout = PlayoutFigures.zero
        playout.currentDelayMilliseconds = jitterBufferMilliseconds
        monitor.update(playout: playout)
    }

    /// Sends one packet, `lost` or not, 20 ms after the previous.
    mutating func send(lost: Bool) {
        if !lost {
            statistics.record(sequence: sequence, timestamp: timestamp, arrival: now)
            payloadPackets += 1
            var counters = ReceptionCounters(statistics)
            counters.mediaPayloadPackets = payloadPackets
            counters.mediaPayloadOctets = payloadPackets * payloadOctetsPerPacket
            monitor.recordArrival(counters)
        }
        sequence = SequenceNumber(sequence.rawValue &+ 1)
        timestamp = RTPTimestamp(timestamp.rawValue &+ 160)
        now = now + Self.packet
    }

    /// Sends `losses` (one per packet, `true` lost) and makes a report after every 50 packets.
    mutating func play(_ losses: [Bool]) {
        for (index, lost) in losses.enumerated() {
            send(lost: lost)
            if (index + 1) % 50 == 0 { reports.append(monitor.makeReport(now: now)) }
        }
    }

    /// `count` fates with about `percent` % lost at random; the first and last are received, so
    /// that every loss lies between two received packets and RFC 3550 expects it.
    static func randomLosses(count: Int, percent: Double, seed: UInt64) -> [Bool] {
        var generator = SplitMix64(seed: seed)
        var losses = (0..<count).map { _ in Double.random(in: 0..<100, using: &generator) < percent }
        losses[0] = false
        losses[count - 1] = false
        return losses
    }

    /// The E-model for a G.711-with-concealment call with these measured inputs, computed
    /// directly from ``EModel``.
    static func expectedRating(lossPercent: Double, burstRatio: Double, delayMilliseconds: Double) throws -> EModelResult {
        var parameters = EModelParameters()
        parameters.packetLossPercent = lossPercent
        parameters.burstRatio = burstRatio
        parameters.absoluteDelayMilliseconds = delayMilliseconds
        let g711 = try #require(CodecImpairmentTable.standard.entry(forEncodingName: "PCMU"))
        return try EModel.evaluate(parameters.applying(g711))
    }
}
