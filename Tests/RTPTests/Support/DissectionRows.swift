import Foundation
import RTP

/// Renders what our parsers read the way `tshark -T fields` prints the same fields, so that a
/// row from tshark and a row from us can be compared column by column.
enum DissectionRows {
    /// The RTP fields compared, in tshark's names.
    static let rtpFields = [
        "rtp.version", "rtp.padding", "rtp.ext", "rtp.cc", "rtp.marker", "rtp.p_type", "rtp.seq", "rtp.timestamp",
        "rtp.ssrc", "rtp.csrc.item", "rtp.ext.profile", "rtp.ext.len", "rtp.ext.rfc5285.id", "rtp.ext.rfc5285.data",
        "rtp.padding.count",
    ]

    /// The columns of ``rtpFields`` that list header-extension elements.
    static let elementColumns = [12, 13]

    /// The RFC 4733 event fields compared.
    static let eventFields = ["rtpevent.event_id", "rtpevent.end_of_event", "rtpevent.volume", "rtpevent.duration"]

    /// The RTCP fields compared (multi-valued fields list every occurrence in packet order).
    static let rtcpFields = [
        "rtcp.pt", "rtcp.senderssrc", "rtcp.timestamp.ntp.msw", "rtcp.timestamp.ntp.lsw", "rtcp.timestamp.rtp",
        "rtcp.sender.packetcount", "rtcp.sender.octetcount", "rtcp.ssrc.fraction", "rtcp.ssrc.cum_nr",
        "rtcp.ssrc.ext_high", "rtcp.ssrc.jitter", "rtcp.ssrc.lsr", "rtcp.ssrc.dlsr", "rtcp.sdes.type", "rtcp.sdes.text",
        "rtcp.app.subtype", "rtcp.app.name", "rtcp.app.data", "rtcp.xr.bt", "rtcp.xr.lrr", "rtcp.xr.dlrr",
        "rtcp.ssrc.discarded", "rtcp.xr.voipmetrics.burstdensity", "rtcp.xr.voipmetrics.gapdensity",
        "rtcp.xr.voipmetrics.burstduration", "rtcp.xr.voipmetrics.gapduration", "rtcp.xr.voipmetrics.rtdelay",
        "rtcp.xr.voipmetrics.esdelay", "rtcp.xr.voipmetrics.signallevel", "rtcp.xr.voipmetrics.noiselevel",
        "rtcp.xr.voipmetrics.rerl", "rtcp.xr.voipmetrics.gmin", "rtcp.xr.voipmetrics.rfactor",
        "rtcp.xr.voipmetrics.extrfactor", "rtcp.xr.voipmetrics.moslq", "rtcp.xr.voipmetrics.moscq",
        "rtcp.xr.voipmetrics.plc", "rtcp.xr.voipmetrics.jba", "rtcp.xr.voipmetrics.jbrate",
        "rtcp.xr.voipmetrics.jbnominal", "rtcp.xr.voipmetrics.jbmax", "rtcp.xr.voipmetrics.jbabsmax",
    ]

    static func hex32(_ value: UInt32) -> String { String(format: "0x%08x", value) }
    static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    /// Our reading of an RTP packet, as tshark prints ``rtpFields``.
    static func rtp(_ packet: RTPPacket) -> [String] {
        let headerExtension = packet.headerExtension
        let elements = headerExtension.map { Array($0.elements) } ?? []
        return [
            "\(packet.version)", flag(packet.hasPadding), flag(packet.hasExtension), "\(packet.csrcs.count)",
            flag(packet.marker), "\(packet.payloadType)", "\(packet.sequenceNumber.rawValue)",
            "\(packet.timestamp.rawValue)", hex32(packet.ssrc), packet.csrcs.map(hex32).joined(separator: ","),
            headerExtension.map { String(format: "0x%04x", $0.profile) } ?? "",
            headerExtension.map { "\($0.data.count / 4)" } ?? "",
            elements.map { "\($0.id)" }.joined(separator: ","),
            elements.map { hexString(array($0.data)) }.joined(separator: ","),
            packet.hasPadding ? "\(packet.paddingLength)" : "",
        ]
    }

    /// Our reading of a telephone-event payload, as tshark prints ``eventFields``.
    static func event(_ payload: DTMFEventPayload) -> [String] {
        ["\(payload.event)", flag(payload.isEnd), "\(payload.volume)", "\(payload.duration)"]
    }

    /// Our reading of an RTCP compound, as tshark prints ``rtcpFields``.
    static func rtcp(_ compound: RTCPCompoundPacket) -> [String] {
        var columns = [String: [String]]()
        func add(_ field: String, _ value: String) { columns[field, default: []].append(value) }
        func addBlocks(_ blocks: RTCPReportBlocks) {
            for block in blocks {
                add("rtcp.ssrc.fraction", "\(block.fractionLost)")
                add("rtcp.ssrc.cum_nr", "\(block.cumulativeLost)")
                add("rtcp.ssrc.ext_high", "\(block.extendedHighestSequence)")
                add("rtcp.ssrc.jitter", "\(block.jitter)")
                add("rtcp.ssrc.lsr", "\(block.lastSenderReport)")
                add("rtcp.ssrc.dlsr", "\(block.delaySinceLastSenderReport)")
            }
        }
        for packet in compound {
            switch packet {
            case .senderReport(let report):
                add("rtcp.pt", "200")
                add("rtcp.senderssrc", hex32(report.ssrc))
                let info = report.senderInfo
                add("rtcp.timestamp.ntp.msw", "\(info.ntpTimestamp.seconds)")
                add("rtcp.timestamp.ntp.lsw", "\(info.ntpTimestamp.fraction)")
                add("rtcp.timestamp.rtp", "\(info.rtpTimestamp.rawValue)")
                add("rtcp.sender.packetcount", "\(info.packetCount)")
                add("rtcp.sender.octetcount", "\(info.octetCount)")
                addBlocks(report.reportBlocks)
            case .receiverReport(let report):
                add("rtcp.pt", "201")
                add("rtcp.senderssrc", hex32(report.ssrc))
                addBlocks(report.reportBlocks)
            case .sourceDescription(let description):
                add("rtcp.pt", "202")
                for chunk in description.chunks {
                    for item in chunk.items {
                        add("rtcp.sdes.type", "\(item.type.rawValue)")
                        add("rtcp.sdes.text", item.text)
                    }
                    add("rtcp.sdes.type", "0")
                }
            case .goodbye(let goodbye):
                add("rtcp.pt", "203")
                if let reason = goodbye.reasonText { add("rtcp.sdes.text", reason) }
            case .application(let application):
                add("rtcp.pt", "204")
                add("rtcp.app.subtype", "\(application.subtype)")
                add("rtcp.app.name", application.nameText)
                add("rtcp.app.data", hexString(array(application.data)))
            case .extendedReport(let report):
                add("rtcp.pt", "207")
                add("rtcp.senderssrc", hex32(report.ssrc))
                for block in report.blocks { addXR(block, add) }
            case .other(let other):
                add("rtcp.pt", "\(other.packetType)")
            }
        }
        return rtcpFields.map { columns[$0]?.joined(separator: ",") ?? "" }
    }

    private static func addXR(_ block: RTCPExtendedReport.Block, _ add: (String, String) -> Void) {
        switch block {
        case .receiverReferenceTime:
            add("rtcp.xr.bt", "4")
        case .dlrr(let items):
            add("rtcp.xr.bt", "5")
            for item in items {
                add("rtcp.xr.lrr", "\(item.lastReceiverReport)")
                add("rtcp.xr.dlrr", "\(item.delaySinceLastReceiverReport)")
            }
        case .voipMetrics(let metrics):
            add("rtcp.xr.bt", "7")
            add("rtcp.ssrc.fraction", "\(metrics.lossRate)")
            add("rtcp.ssrc.discarded", "\(metrics.discardRate)")
            let values: [(String, String)] = [
                ("burstdensity", "\(metrics.burstDensity)"), ("gapdensity", "\(metrics.gapDensity)"),
                ("burstduration", "\(metrics.burstDuration)"), ("gapduration", "\(metrics.gapDuration)"),
                ("rtdelay", "\(metrics.roundTripDelay)"), ("esdelay", "\(metrics.endSystemDelay)"),
                ("signallevel", "\(metrics.signalLevel)"), ("noiselevel", "\(metrics.noiseLevel)"),
                ("rerl", "\(metrics.residualEchoReturnLoss)"), ("gmin", "\(metrics.gapThreshold)"),
                ("rfactor", "\(metrics.rFactor)"), ("extrfactor", "\(metrics.externalRFactor)"),
                ("moslq", String(format: "%g", Double(metrics.mosListeningQuality) / 10)),
                ("moscq", String(format: "%g", Double(metrics.mosConversationalQuality) / 10)),
                ("plc", "\(metrics.receiverConfiguration >> 6)"), ("jba", "\(metrics.receiverConfiguration >> 4 & 3)"),
                ("jbrate", "\(metrics.receiverConfiguration & 0x0F)"), ("jbnominal", "\(metrics.jitterBufferNominal)"),
                ("jbmax", "\(metrics.jitterBufferMaximum)"), ("jbabsmax", "\(metrics.jitterBufferAbsoluteMaximum)"),
            ]
            for (name, value) in values { add("rtcp.xr.voipmetrics." + name, value) }
        case .other(let type, _, _):
            add("rtcp.xr.bt", "\(type)")
        }
    }
}
