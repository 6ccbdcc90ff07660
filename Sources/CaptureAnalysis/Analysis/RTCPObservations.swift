import QualityMetrics
import PlayoutLab
import RTP

/// What the RTCP of a capture said about one RTP source (SSRC): its own sender reports, the
/// round trips they imply, and what the other end reported about receiving it.
public struct RTCPSourceReport: Sendable, Hashable, Codable {
    /// Sender reports the source sent.
    public var senderReports = 0
    /// Report blocks about the source (in SRs or RRs from the other end).
    public var receptionReports = 0
    /// Round trips measured from those report blocks, in milliseconds (see `RTCPObservations`).
    public var roundTripMilliseconds = MinimumMeanMaximum()
    /// The last fraction lost the far end reported, in percent.
    public var lastFractionLostPercent: Double?
    /// The largest fraction lost the far end reported, in percent.
    public var maximumFractionLostPercent: Double?
    /// The last cumulative number of packets lost the far end reported.
    public var lastCumulativeLost: Int32?
    /// The last interarrival jitter the far end reported, in RTP timestamp units.
    public var lastJitterUnits: UInt32?
    /// The largest interarrival jitter the far end reported, in RTP timestamp units.
    public var maximumJitterUnits: UInt32?

    enum CodingKeys: String, CodingKey {
        case senderReports = "sender_reports"
        case receptionReports = "reception_reports"
        case roundTripMilliseconds = "rtt_ms"
        case lastFractionLostPercent = "fraction_lost_percent_last"
        case maximumFractionLostPercent = "fraction_lost_percent_max"
        case lastCumulativeLost = "cumulative_lost_last"
        case lastJitterUnits = "jitter_units_last"
        case maximumJitterUnits = "jitter_units_max"
    }

    /// Nothing reported yet.
    public init() {}

    mutating func include(_ block: RTCPReportBlock) {
        receptionReports += 1
        let fraction = Double(block.fractionLost) * 100 / 256
        lastFractionLostPercent = fraction
        maximumFractionLostPercent = max(maximumFractionLostPercent ?? 0, fraction)
        lastCumulativeLost = block.cumulativeLost
        lastJitterUnits = block.jitter
        maximumJitterUnits = max(maximumJitterUnits ?? 0, block.jitter)
    }
}

/// Minimum, mean and maximum of a series, with its count; all `nil`-free zeros when empty.
public struct MinimumMeanMaximum: Sendable, Hashable, Codable {
    /// Values taken in.
    public private(set) var count = 0
    /// The smallest value (0 when empty).
    public private(set) var minimum: Double = 0
    /// The arithmetic mean (0 when empty).
    public private(set) var mean: Double = 0
    /// The largest value (0 when empty).
    public private(set) var maximum: Double = 0

    enum CodingKeys: String, CodingKey {
        case count, minimum = "min", mean, maximum = "max"
    }

    /// An empty series.
    public init() {}

    /// Takes `value` in.
    public mutating func include(_ value: Double) {
        minimum = count == 0 ? value : min(minimum, value)
        maximum = count == 0 ? value : max(maximum, value)
        count += 1
        mean += (value - mean) / Double(count)
    }
}

/// Collects RTCP per SSRC as a passive observer would: each sender report's NTP time (middle
/// 32 bits) and capture time are remembered (the last few per source), and a report block that
/// echoes one in its LSR field gives the round trip as seen at the capture point:
/// block arrival − SR arrival − DLSR. This needs no synchronized clocks, unlike RFC 3550's
/// formula, which only the SR's sender can apply.
struct RTCPObservations {
    private static let rememberedSenderReports = 16
    private var senderReports: [UInt32: [(middle32: UInt32, arrivalNanoseconds: Int64)]] = [:]
    private(set) var sources: [UInt32: RTCPSourceReport] = [:]
    private(set) var packets = 0

    /// Takes in one compound packet that arrived at `arrivalNanoseconds`.
    mutating func record(_ compound: RTCPCompoundPacket, arrivalNanoseconds: Int64) {
        packets += 1
        for packet in compound {
            switch packet {
            case .senderReport(let report):
                sources[report.ssrc, default: RTCPSourceReport()].senderReports += 1
                remember(report.senderInfo.ntpTimestamp.middle32, from: report.ssrc, at: arrivalNanoseconds)
                for block in report.reportBlocks { include(block, arrivalNanoseconds: arrivalNanoseconds) }
            case .receiverReport(let report):
                for block in report.reportBlocks { include(block, arrivalNanoseconds: arrivalNanoseconds) }
            default:
                continue
            }
        }
    }

    private mutating func remember(_ middle32: UInt32, from ssrc: UInt32, at arrivalNanoseconds: Int64) {
        var recent = senderReports[ssrc, default: []]
        if recent.count == Self.rememberedSenderReports { recent.removeFirst() }
        recent.append((middle32, arrivalNanoseconds))
        senderReports[ssrc] = recent
    }

    private mutating func include(_ block: RTCPReportBlock, arrivalNanoseconds: Int64) {
        var source = sources[block.ssrc, default: RTCPSourceReport()]
        source.include(block)
        if block.lastSenderReport != 0,
            let echoed = senderReports[block.ssrc]?.last(where: { $0.middle32 == block.lastSenderReport })
        {
            let delaySinceReport = CompactNTP.time(ofUnits: block.delaySinceLastSenderReport).nanoseconds
            let roundTrip = (arrivalNanoseconds &- echoed.arrivalNanoseconds) &- delaySinceReport
            if roundTrip >= 0 { source.roundTripMilliseconds.include(Double(roundTrip) / 1e6) }
        }
        sources[block.ssrc] = source
    }
}
