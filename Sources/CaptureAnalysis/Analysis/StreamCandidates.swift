import QualityMetrics
import PlayoutLab
/// The RTP heuristic for flows no SDP announced: a 5-tuple and SSRC becomes a stream only after
/// ``confirmationPackets`` packets in a row look like one. Their headers wait here (a few
/// bytes each), so a confirmed stream is analysed from its very first packet.
///
/// Guards against false positives, on top of the structural checks of `RTPPacket` (version 2,
/// CSRC list, extension and padding within the datagram):
/// - the payload type must be a static audio/video type (0–34) or a dynamic one (96–127);
///   72–76 collide with RTCP, and the rest are unassigned;
/// - each packet's sequence number must follow the previous one's within
///   ``maximumSequenceStep`` (a repeat, as RFC 4733 end packets do, is allowed);
/// - each timestamp must lie within ``maximumTimestampStep`` of the previous one.
///
/// A packet that breaks the rule restarts its candidate. Memory is bounded: at most
/// ``capacity`` candidates are tracked; when full, candidates silent for ``staleNanoseconds``
/// are dropped, and if none is, the new flow is not tracked.
struct StreamCandidates {
    static let maximumSequenceStep = 32
    static let maximumTimestampStep: Int64 = 0x10_0000
    static let staleNanoseconds: Int64 = 10_000_000_000

    let confirmationPackets: Int
    let capacity: Int
    private var pending: [RTPStreamKey: [RTPPacketSummary]] = [:]
    /// Packets that looked like RTP but were dropped from a candidate that never confirmed.
    private(set) var abandonedPackets = 0

    init(confirmationPackets: Int, capacity: Int) {
        self.confirmationPackets = max(confirmationPackets, 1)
        self.capacity = max(capacity, 1)
    }

    /// Packets still waiting in unconfirmed candidates.
    var waitingPackets: Int { pending.values.reduce(0) { $0 + $1.count } }

    /// Whether RTP may carry `payloadType` by the heuristic's rule.
    static func isPlausible(payloadType: UInt8) -> Bool {
        payloadType <= 34 || payloadType >= 96
    }

    /// Offers the next packet of the flow `key`; returns every packet of the flow, oldest
    /// first, once it is confirmed as a stream, else `nil`.
    mutating func offer(_ packet: RTPPacketSummary, for key: RTPStreamKey) -> [RTPPacketSummary]? {
        guard Self.isPlausible(payloadType: packet.payloadType) else {
            abandonedPackets += 1
            return nil
        }
        guard var packets = pending[key] else {
            return start(key, with: packet)
        }
        if let last = packets.last, !Self.follows(packet, last) {
            abandonedPackets += packets.count
            packets.removeAll(keepingCapacity: true)
        }
        packets.append(packet)
        if packets.count >= confirmationPackets {
            pending[key] = nil
            return packets
        }
        pending[key] = packets
        return nil
    }

    private mutating func start(_ key: RTPStreamKey, with packet: RTPPacketSummary) -> [RTPPacketSummary]? {
        if confirmationPackets == 1 { return [packet] }
        if pending.count >= capacity {
            let staleBefore = packet.arrivalNanoseconds &- Self.staleNanoseconds
            let stale = pending.filter { ($0.value.last?.arrivalNanoseconds ?? .min) < staleBefore }
            for (staleKey, packets) in stale {
                pending[staleKey] = nil
                abandonedPackets += packets.count
            }
            guard pending.count < capacity else {
                abandonedPackets += 1
                return nil
            }
        }
        var packets: [RTPPacketSummary] = []
        packets.reserveCapacity(confirmationPackets)
        packets.append(packet)
        pending[key] = packets
        return nil
    }

    private static func follows(_ packet: RTPPacketSummary, _ previous: RTPPacketSummary) -> Bool {
        let step = Int(Int16(bitPattern: packet.sequenceNumber &- previous.sequenceNumber))
        let advance = Int64(Int32(bitPattern: packet.timestamp &- previous.timestamp))
        return (0...maximumSequenceStep).contains(step) && abs(advance) <= maximumTimestampStep
    }
}
