import Foundation
import Testing
import RTP

/// Packets we build, written to a pcap and dissected by tshark: it must find nothing malformed
/// and read back the values we wrote.
@Suite("tshark reads what we write")
struct TSharkInteropTests {
    static let rtpPort: UInt16 = 40000
    static let rtcpPort: UInt16 = 40001
    static let decodeAs = ["-d", "udp.port==\(rtpPort),rtp", "-d", "udp.port==\(rtcpPort),rtcp"]

    /// One RTP packet per variant: plain, marker, CSRCs, one-byte and two-byte extensions, padding.
    struct RTPCase {
        var header: RTPHeaderFields
        var csrcs: [UInt32] = []
        var form: RTPHeaderExtensionForm?
        var padding = 0
        var payloadLength = 160
    }

    static let rtpCases: [RTPCase] = [
        RTPCase(header: RTPHeaderFields(payloadType: 0, sequenceNumber: SequenceNumber(65535), timestamp: RTPTimestamp(4_294_967_200), ssrc: 0xDEAD_BEEF)),
        RTPCase(
            header: RTPHeaderFields(marker: true, payloadType: 8, sequenceNumber: SequenceNumber(0), timestamp: RTPTimestamp(64), ssrc: 0xDEAD_BEEF),
            csrcs: [1, 0xFFFF_FFFF, 77]),
        RTPCase(header: RTPHeaderFields(payloadType: 111, sequenceNumber: SequenceNumber(1), timestamp: RTPTimestamp(224), ssrc: 0xDEAD_BEEF), form: .oneByte),
        RTPCase(
            header: RTPHeaderFields(payloadType: 96, sequenceNumber: SequenceNumber(2), timestamp: RTPTimestamp(384), ssrc: 0xDEAD_BEEF), form: .twoByte,
            padding: 5),
        RTPCase(
            header: RTPHeaderFields(payloadType: 9, sequenceNumber: SequenceNumber(3), timestamp: RTPTimestamp(544), ssrc: 0xDEAD_BEEF), csrcs: Array(1...15),
            padding: 1, payloadLength: 20),
    ]

    static func buildRTP(_ rtpCase: RTPCase) throws -> [UInt8] {
        try build { buffer in
            var builder = try RTPPacketBuilder(into: buffer, header: rtpCase.header, csrcs: rtpCase.csrcs, extensionForm: rtpCase.form)
            if rtpCase.form != nil {
                try [UInt8]([0x80 | 42]).withUnsafeBytes { try builder.appendExtensionElement(id: 1, data: $0) }
                try [UInt8](repeating: 0x55, count: 3).withUnsafeBytes { try builder.appendExtensionElement(id: 3, data: $0) }
            }
            try [UInt8](repeating: 0xD5, count: rtpCase.payloadLength).withUnsafeBytes { try builder.appendPayload($0) }
            return try builder.finish(paddingLength: rtpCase.padding)
        }
    }

    /// A DTMF event from our sender, as RTP packets with PT 101 (tshark's default for events).
    static func dtmfPackets() throws -> (packets: [[UInt8]], payloads: [DTMFPacket]) {
        var sender = DTMFSender(packetDuration: 160, volume: 12)
        sender.start(event: 11, timestamp: RTPTimestamp(16000), duration: 480)
        var payloads: [DTMFPacket] = []
        while let packet = sender.nextPacket() { payloads.append(packet) }
        let packets = try payloads.enumerated().map { index, event in
            try build { buffer in
                var builder = try RTPPacketBuilder(
                    into: buffer,
                    header: RTPHeaderFields(
                        marker: event.marker, payloadType: 101, sequenceNumber: SequenceNumber(UInt16(100 + index)), timestamp: event.timestamp, ssrc: 0xCAFE))
                try builder.commitPayload(byteCount: event.payload.write(into: builder.payloadSpace()))
                return try builder.finish()
            }
        }
        return (packets, payloads)
    }

    static func receiverReportCompound() throws -> [UInt8] {
        try build { buffer in
            var builder = RTCPCompoundBuilder(into: buffer)
            try builder.addReceiverReport(ssrc: 0xCAFE, reportBlocks: [SampleCompound.blocks[1]])
            try builder.addSourceDescription([
                RTCPSourceDescriptionChunk(
                    ssrc: 0xCAFE,
                    items: [.init(.cname, "bob@example.org"), .init(.email, "bob@example.org"), .init(.phone, "+1 555 0100"), .init(.location, "Lab")])
            ])
            try builder.addExtendedReport(ssrc: 0xCAFE, receiverReferenceTime: SampleCompound.referenceTime)
            return try builder.finish()
        }
    }

    /// Writes every packet type to one pcap: RTP on one port, RTCP on the next.
    static func capture() throws -> (url: URL, rtp: [[UInt8]], dtmf: [DTMFPacket]) {
        var writer = PcapWriter()
        var time = 1_700_000_000.0
        var rtp = try rtpCases.map(buildRTP)
        let dtmf = try dtmfPackets()
        rtp += dtmf.packets
        for packet in rtp {
            writer.append(payload: packet, sourcePort: rtpPort, destinationPort: rtpPort, time: time)
            time += 0.02
        }
        for compound in [try SampleCompound.build(), try receiverReportCompound()] {
            writer.append(payload: compound, sourcePort: rtcpPort, destinationPort: rtcpPort, time: time)
            time += 0.02
        }
        return (try writer.writeTemporaryFile(named: "interop"), rtp, dtmf.payloads)
    }

    @Test("tshark reports no malformed packet and no expert warning")
    func noProblems() throws {
        let capture = try Self.capture()
        defer { try? FileManager.default.removeItem(at: capture.url) }
        if ProcessInfo.processInfo.environment["RTP_KEEP_PCAP"] != nil {
            try? FileManager.default.copyItem(at: capture.url, to: URL(fileURLWithPath: "/tmp/rtp-interop.pcap"))
        }
        let problems = try TShark.problems(capture.url, options: Self.decodeAs)
        #expect(problems.isEmpty, "\(problems)")
        let protocols = try TShark.fields(capture.url, options: Self.decodeAs, fields: ["frame.protocols"]).map { $0[0] }
        #expect(protocols.count == capture.rtp.count + 2)
        #expect(protocols.allSatisfy { $0.hasSuffix(":rtp") || $0.hasSuffix(":rtpevent") || $0.hasSuffix(":rtcp") }, "\(protocols)")
    }
}

extension TSharkInteropTests {
    @Test("RTP and DTMF field values read by tshark equal what we wrote")
    func rtpFieldValues() throws {
        let capture = try Self.capture()
        defer { try? FileManager.default.removeItem(at: capture.url) }
        let rows = try TShark.fields(
            capture.url, options: Self.decodeAs + ["-Y", "rtp"],
            fields: DissectionRows.rtpFields + DissectionRows.eventFields + ["rtp.payload"])
        #expect(rows.count == capture.rtp.count)
        let rtpColumns = DissectionRows.rtpFields.count
        for (index, (row, bytes)) in zip(rows, capture.rtp).enumerated() {
            try withPacket(bytes) { packet in
                #expect(Array(row[..<rtpColumns]) == DissectionRows.rtp(packet), "packet \(index)")
                if packet.payloadType == 101 {
                    let payload = try DTMFEventPayload(parsing: packet.payload)
                    #expect(Array(row[rtpColumns..<(rtpColumns + 4)]) == DissectionRows.event(payload), "packet \(index)")
                } else {
                    #expect(row[rtpColumns + 4] == hexString(array(packet.payload)), "packet \(index)")
                }
            }
        }
        // Spot checks against the intended values, independent of our parser.
        #expect(rows[0][6] == "65535" && rows[0][7] == "4294967200" && rows[0][8] == "0xdeadbeef")
        #expect(rows[1][4] == "1" && rows[1][9] == "0x00000001,0xffffffff,0x0000004d")
        #expect(rows[2][10] == "0xbede" && rows[2][12] == "1,3" && rows[2][13] == "aa,555555")
        #expect(rows[3][10] == "0x1000" && rows[3][14] == "5")
        let events = rows.suffix(capture.dtmf.count).map { Array($0[rtpColumns..<(rtpColumns + 4)]) }
        #expect(events == capture.dtmf.map { DissectionRows.event($0.payload) })
        #expect(events.map { $0[3] } == ["160", "320", "480", "480", "480"])
    }

    @Test("RTCP field values read by tshark equal what we wrote (SR, RR, SDES, BYE, APP, XR)")
    func rtcpFieldValues() throws {
        let capture = try Self.capture()
        defer { try? FileManager.default.removeItem(at: capture.url) }
        let rows = try TShark.fields(capture.url, options: Self.decodeAs + ["-Y", "rtcp"], fields: DissectionRows.rtcpFields + ["rtcp.xr.timestamp"])
        let compounds = [try SampleCompound.build(), try TSharkInteropTests.receiverReportCompound()]
        #expect(rows.count == compounds.count)
        for (row, bytes) in zip(rows, compounds) {
            let ours = try bytes.withUnsafeBytes { try DissectionRows.rtcp(RTCPCompoundPacket($0)) }
            for (name, (theirs, mine)) in zip(DissectionRows.rtcpFields, zip(row, ours)) {
                #expect(theirs == mine, "\(name)")
            }
        }
        // Spot checks against the intended values.
        let first = Dictionary(uniqueKeysWithValues: zip(DissectionRows.rtcpFields + ["rtcp.xr.timestamp"], rows[0]))
        #expect(first["rtcp.pt"] == "200,202,207,204,203")
        #expect(first["rtcp.ssrc.fraction"] == "25,0,12" && first["rtcp.ssrc.cum_nr"] == "77,-3")
        #expect(first["rtcp.sdes.text"] == "alice@example.org,MediaEngine,on air,mix,Bob,end of call")
        #expect(first["rtcp.xr.voipmetrics.moslq"] == "4.1" && first["rtcp.xr.voipmetrics.jbabsmax"] == "200")
        #expect(first["rtcp.app.name"] == "TEST" && first["rtcp.app.data"] == "0102030405060708")
        // The receiver reference time, as the UTC date tshark prints.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy HH:mm:ss"
        let unix = SampleCompound.referenceTime.unixTime
        let seconds = unix.nanoseconds / 1_000_000_000
        let expected =
            formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            + String(format: ".%09lld UTC", unix.nanoseconds % 1_000_000_000)
        #expect(first["rtcp.xr.timestamp"] == expected)
    }

    @Test("The problem filter does catch a malformed packet (so a clean result means something)")
    func problemFilterCatchesMalformed() throws {
        var writer = PcapWriter()
        writer.append(payload: hexBytes("81c9000d 00000001"), sourcePort: Self.rtcpPort, destinationPort: Self.rtcpPort, time: 1)
        let url = try writer.writeTemporaryFile(named: "malformed")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try !TShark.problems(url, options: Self.decodeAs).isEmpty)
    }
}
