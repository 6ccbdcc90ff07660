import Foundation
import QualityMetrics
import CaptureAnalysis
import TestSupport

/// tshark as the independent oracle for ``WiresharkRTPStreamStatistics``: its per-packet RTP
/// fields (to feed our statistics) and its `-z rtp,streams` listing (to compare with).
enum WiresharkTshark {
    /// One RTP stream as tshark keys it: addresses, ports and SSRC.
    struct StreamKey: Hashable, CustomStringConvertible {
        let source: String
        let sourcePort: UInt16
        let destination: String
        let destinationPort: UInt16
        let ssrc: UInt32

        var description: String {
            "\(source):\(sourcePort) → \(destination):\(destinationPort) SSRC " + String(format: "0x%08X", ssrc)
        }
    }

    /// One row of `tshark -z rtp,streams`.
    struct StreamRow {
        let key: StreamKey
        let payload: String
        let packets: UInt32
        let lost: Int32
        let lostPercent: Double
        let delta: WiresharkMillisecondFigures
        let jitter: WiresharkMillisecondFigures
        let hasProblems: Bool
    }

    /// One RTP packet as tshark dissected it.
    struct Packet {
        let key: StreamKey
        let arrivalNanoseconds: Int64
        let sequenceNumber: UInt16
        let timestamp: UInt32
        let payloadType: UInt8
        let marker: Bool
    }

    /// The SDP `a=rtpmap` entries of a capture: encoding name and clock rate per payload type.
    typealias PayloadMap = [UInt8: (name: String, rate: UInt32)]

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    static func options(heuristic: Bool) -> [String] {
        heuristic ? ["--enable-heuristic", "rtp_udp"] : []
    }

    /// `tshark -n -q -r file -z rtp,streams`, parsed.
    static func streams(_ file: URL, heuristic: Bool) throws -> [StreamRow] {
        let output = try ExternalTool.run(
            ["tshark", "-n", "-q", "-r", file.path] + options(heuristic: heuristic) + ["-z", "rtp,streams"])
        return try output.standardOutput.split(separator: "\n").filter { $0.contains(" 0x") }.map(parseRow)
    }

    /// `Start End Src Port Dst Port SSRC Payload… Pkts Lost (p%) 6×figures [X]`; the payload
    /// name may contain spaces (`g711A, telephone-event`).
    static func parseRow(_ line: Substring) throws -> StreamRow {
        var fields = line.split(separator: " ").map(String.init)
        let hasProblems = fields.last == "X"
        if hasProblems { fields.removeLast() }
        guard fields.count >= 17,
            let sourcePort = UInt16(fields[3]), let destinationPort = UInt16(fields[5]),
            let ssrc = UInt32(fields[6].dropFirst(2), radix: 16)
        else {
            throw ParseError(description: "unexpected tshark stream row: \(line)")
        }
        let figures = try fields.suffix(6).map { value in
            guard let number = Double(value) else { throw ParseError(description: "bad figure \(value) in \(line)") }
            return number
        }
        let tail = fields.dropLast(6)
        let percentText = tail.last?.trimmingCharacters(in: CharacterSet(charactersIn: "(%)")) ?? ""
        guard let lostPercent = Double(percentText), let lost = Int32(tail[tail.count - 2 + tail.startIndex]),
            let packets = UInt32(tail[tail.count - 3 + tail.startIndex])
        else {
            throw ParseError(description: "bad packets/lost in \(line)")
        }
        return StreamRow(
            key: StreamKey(
                source: fields[2], sourcePort: sourcePort, destination: fields[4],
                destinationPort: destinationPort, ssrc: ssrc),
            payload: tail.dropLast(3).dropFirst(7).joined(separator: " "),
            packets: packets, lost: lost, lostPercent: lostPercent,
            delta: WiresharkMillisecondFigures(minimum: figures[0], mean: figures[1], maximum: figures[2]),
            jitter: WiresharkMillisecondFigures(minimum: figures[3], mean: figures[4], maximum: figures[5]),
            hasProblems: hasProblems)
    }

    /// Every RTP version 2 packet (the ones Wireshark's RTP tap sees), in capture order.
    static func packets(_ file: URL, heuristic: Bool) throws -> [Packet] {
        let fields = [
            "frame.time_epoch", "ip.src", "ipv6.src", "udp.srcport", "ip.dst", "ipv6.dst",
            "udp.dstport", "rtp.ssrc", "rtp.seq", "rtp.timestamp", "rtp.p_type", "rtp.marker",
        ]
        let output = try ExternalTool.run(
            ["tshark", "-n", "-r", file.path] + options(heuristic: heuristic)
                + ["-Y", "rtp.version == 2", "-T", "fields"] + fields.flatMap { ["-e", $0] })
        return try output.standardOutput.split(separator: "\n").map { line in
            let value = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard value.count == fields.count,
                let arrival = nanoseconds(epoch: value[0]),
                let sourcePort = UInt16(value[3]), let destinationPort = UInt16(value[6]),
                let ssrc = UInt32(value[7].dropFirst(2), radix: 16), let sequenceNumber = UInt16(value[8]),
                let timestamp = UInt32(value[9]), let payloadType = UInt8(value[10])
            else {
                throw ParseError(description: "unexpected tshark fields: \(line)")
            }
            let key = StreamKey(
                source: value[1] + value[2], sourcePort: sourcePort, destination: value[4] + value[5],
                destinationPort: destinationPort, ssrc: ssrc)
            return Packet(
                key: key, arrivalNanoseconds: arrival, sequenceNumber: sequenceNumber,
                timestamp: timestamp, payloadType: payloadType, marker: value[11] == "1")
        }
    }

    /// `seconds.nanoseconds` (tshark prints nine decimals) as integer nanoseconds, exactly.
    static func nanoseconds(epoch: String) -> Int64? {
        let parts = epoch.split(separator: ".")
        guard parts.count == 2, parts[1].count == 9, let seconds = Int64(parts[0]), let fraction = Int64(parts[1]) else {
            return nil
        }
        return seconds * 1_000_000_000 + fraction
    }

    /// The `a=rtpmap` lines of the capture's SDP bodies.
    static func payloadMap(_ file: URL) throws -> PayloadMap {
        let output = try ExternalTool.run([
            "tshark", "-n", "-r", file.path, "-Y", "sdp", "-T", "fields",
            "-e", "sdp.media_attr",
        ])
        var map: PayloadMap = [:]
        for attribute in output.standardOutput.split(whereSeparator: { $0 == "\n" || $0 == "," })
        where attribute.hasPrefix("rtpmap:") {
            // rtpmap:99 opus/48000/2
            let words = attribute.dropFirst("rtpmap:".count).split(separator: " ")
            guard words.count == 2, let payloadType = UInt8(words[0]) else { continue }
            let encoding = words[1].split(separator: "/")
            map[payloadType] = (String(encoding[0]), encoding.count > 1 ? UInt32(encoding[1]) ?? 0 : 0)
        }
        return map
    }

    /// Our statistics for every stream of `packets`, with the clocks tshark would use.
    static func statistics(_ packets: [Packet], payloads: PayloadMap) -> [StreamKey: WiresharkRTPStreamStatistics] {
        var streams: [StreamKey: WiresharkRTPStreamStatistics] = [:]
        for packet in packets {
            let sdp = payloads[packet.payloadType]
            let clock = WiresharkPayloadClock.forPayloadType(
                packet.payloadType, encodingName: sdp?.name,
                sdpClockRate: sdp?.rate)
            streams[packet.key, default: WiresharkRTPStreamStatistics()].record(
                arrivalNanoseconds: packet.arrivalNanoseconds, sequenceNumber: packet.sequenceNumber,
                timestamp: packet.timestamp, payloadType: packet.payloadType, marker: packet.marker, clock: clock)
        }
        return streams
    }

    /// The differences between our figures and tshark's row, one sentence each (empty when
    /// they agree: packets and lost exactly, figures within 0.001 ms of tshark's three
    /// decimals, lost % within its one decimal, the same problems mark).
    static func differences(_ ours: WiresharkRTPStreamStatistics, _ row: StreamRow) -> [String] {
        var found: [String] = []
        func close(_ name: String, _ mine: Double, _ theirs: Double, within tolerance: Double) {
            if !(abs(mine - theirs) <= tolerance) { found.append("\(name): ours \(mine), tshark \(theirs)") }
        }
        if ours.packets != row.packets { found.append("packets: ours \(ours.packets), tshark \(row.packets)") }
        if ours.lostPackets != row.lost { found.append("lost: ours \(ours.lostPackets), tshark \(row.lost)") }
        close("lost %", ours.lostPercent, row.lostPercent, within: 0.051)
        let millisecond = 0.001
        close("min delta", ours.delta.minimum, row.delta.minimum, within: millisecond)
        close("mean delta", ours.delta.mean, row.delta.mean, within: millisecond)
        close("max delta", ours.delta.maximum, row.delta.maximum, within: millisecond)
        close("min jitter", ours.jitter.minimum, row.jitter.minimum, within: millisecond)
        close("mean jitter", ours.jitter.mean, row.jitter.mean, within: millisecond)
        close("max jitter", ours.jitter.maximum, row.jitter.maximum, within: millisecond)
        if ours.hasProblems != row.hasProblems {
            found.append("problems: ours \(ours.hasProblems), tshark \(row.hasProblems)")
        }
        return found.map { "\(row.key): \($0)" }
    }
}
