import Testing
import TestSupport
import RTP

/// A compound with one of every packet type we build, and the values it holds.
enum SampleCompound {
    static let ssrc: UInt32 = 0x1122_3344
    static let senderInfo = RTCPSenderInfo(
        ntpTimestamp: NTPTimestamp(seconds: 0xE9A1_2345, fraction: 0x8000_0000), rtpTimestamp: RTPTimestamp(0xDEAD_BEEF),
        packetCount: 1234, octetCount: 197_440)
    static let blocks = [
        RTCPReportBlock(
            ssrc: 0x5566_7788, fractionLost: 25, cumulativeLost: 77, extendedHighestSequence: 0x0001_0203,
            jitter: 42, lastSenderReport: 0x2345_8000, delaySinceLastSenderReport: 65536),
        RTCPReportBlock(
            ssrc: 0x99AA_BBCC, fractionLost: 0, cumulativeLost: -3, extendedHighestSequence: 17,
            jitter: 0, lastSenderReport: 0, delaySinceLastSenderReport: 0),
    ]
    static let chunks = [
        RTCPSourceDescriptionChunk(ssrc: ssrc, items: [.init(.cname, "alice@example.org"), .init(.tool, "MediaEngine"), .init(.note, "on air")]),
        RTCPSourceDescriptionChunk(ssrc: 0xAABB_CCDD, items: [.init(.cname, "mix"), .init(.name, "Bob")]),
    ]
    static let metrics = RTCPVoIPMetrics(
        ssrc: 0x5566_7788, lossRate: 12, discardRate: 3, burstDensity: 40, gapDensity: 2, burstDuration: 120,
        gapDuration: 5000, roundTripDelay: 85, endSystemDelay: 60, signalLevel: -20, noiseLevel: -65,
        residualEchoReturnLoss: 30, gapThreshold: 16, rFactor: 88, externalRFactor: 127, mosListeningQuality: 41,
        mosConversationalQuality: 40, receiverConfiguration: 0x54, jitterBufferNominal: 40, jitterBufferMaximum: 120,
        jitterBufferAbsoluteMaximum: 200)
    static let referenceTime = NTPTimestamp(seconds: 0xE9A1_2346, fraction: 0x4000_0000)
    static let dlrr = [RTCPDLRRItem(ssrc: 0x5566_7788, lastReceiverReport: 0x2345_4000, delaySinceLastReceiverReport: 32768)]
    static let appData: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    static let appName: UInt32 = 0x5445_5354  // "TEST"

    /// SR with blocks, SDES, XR, APP and BYE, in one compound.
    static func build() throws -> [UInt8] {
        try RTPTests.build { buffer in
            var builder = RTCPCompoundBuilder(into: buffer)
            try builder.addSenderReport(ssrc: ssrc, senderInfo: senderInfo, reportBlocks: blocks)
            try builder.addSourceDescription(chunks)
            try builder.addExtendedReport(ssrc: ssrc, receiverReferenceTime: referenceTime, dlrr: dlrr, voipMetrics: [metrics])
            try appData.withUnsafeBytes { try builder.addApplication(subtype: 3, ssrc: ssrc, name: appName, data: $0) }
            try builder.addGoodbye(ssrcs: [ssrc, 0xAABB_CCDD], reason: "end of call")
            return try builder.finish()
        }
    }
}

@Suite("RTCP")
struct RTCPTests {
    @Test("Round trip of SR, SDES, XR, APP and BYE")
    func roundTrip() throws {
        let bytes = try SampleCompound.build()
        #expect(bytes.count % 4 == 0)
        var kinds: [String] = []
        try bytes.withUnsafeBytes { raw in
            for packet in try RTCPCompoundPacket(raw) {
                switch packet {
                case .senderReport(let report):
                    kinds.append("SR")
                    #expect(report.ssrc == SampleCompound.ssrc)
                    #expect(report.senderInfo == SampleCompound.senderInfo)
                    #expect(Array(report.reportBlocks) == SampleCompound.blocks)
                    #expect(report.profileExtension.isEmpty)
                case .sourceDescription(let description):
                    kinds.append("SDES")
                    let chunks = description.chunks.map { chunk in
                        RTCPSourceDescriptionChunk(ssrc: chunk.ssrc, items: chunk.items.map { .init($0.type, $0.text) })
                    }
                    #expect(chunks == SampleCompound.chunks)
                case .extendedReport(let report):
                    kinds.append("XR")
                    #expect(report.ssrc == SampleCompound.ssrc)
                    var seen = 0
                    for block in report.blocks {
                        seen += 1
                        switch block {
                        case .receiverReferenceTime(let time): #expect(time == SampleCompound.referenceTime)
                        case .dlrr(let items): #expect(Array(items) == SampleCompound.dlrr)
                        case .voipMetrics(let metrics): #expect(metrics == SampleCompound.metrics)
                        case .other: Issue.record("unexpected XR block")
                        }
                    }
                    #expect(seen == 3)
                case .application(let application):
                    kinds.append("APP")
                    #expect(application.subtype == 3 && application.ssrc == SampleCompound.ssrc)
                    #expect(application.name == SampleCompound.appName && application.nameText == "TEST")
                    #expect(array(application.data) == SampleCompound.appData)
                case .goodbye(let goodbye):
                    kinds.append("BYE")
                    #expect(Array(goodbye.ssrcs) == [SampleCompound.ssrc, 0xAABB_CCDD])
                    #expect(goodbye.reasonText == "end of call")
                case .receiverReport, .other:
                    Issue.record("unexpected packet")
                }
            }
        }
        #expect(kinds == ["SR", "SDES", "XR", "APP", "BYE"])
    }

    @Test("RR with blocks, and a BYE without reason")
    func receiverReport() throws {
        let bytes = try build { buffer in
            var builder = RTCPCompoundBuilder(into: buffer)
            try builder.addReceiverReport(ssrc: 9, reportBlocks: SampleCompound.blocks)
            try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: 9, items: [.init(.cname, "abc")])])
            try builder.addGoodbye(ssrcs: [9])
            return try builder.finish()
        }
        // RR 4+4+48, SDES 4+4+2+3 → 16, BYE 8.
        #expect(bytes.count == 56 + 16 + 8)
        let summary: [String] = try withCompound(bytes) { packet in
            switch packet {
            case .receiverReport(let report): "RR \(report.ssrc) \(Array(report.reportBlocks) == SampleCompound.blocks)"
            case .sourceDescription: "SDES"
            case .goodbye(let goodbye): "BYE \(Array(goodbye.ssrcs)) \(goodbye.reasonText ?? "-")"
            default: "?"
            }
        }
        #expect(summary == ["RR 9 true", "SDES", "BYE [9] -"])
    }

    @Test("Compound rules of RFC 3550 §6.1 are enforced by the builder")
    func compoundRules() {
        var buffer = [UInt8](repeating: 0, count: 512)
        buffer.withUnsafeMutableBytes { buffer in
            #expect(
                rtpError {
                    var builder = RTCPCompoundBuilder(into: buffer)
                    try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: 1, items: [.init(.cname, "x")])])
                }?.reason == .compoundMustStartWithReport)
            #expect(
                rtpError {
                    var builder = RTCPCompoundBuilder(into: buffer)
                    try builder.addReceiverReport(ssrc: 1)
                    try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: 1, items: [.init(.name, "x")])])
                    _ = try builder.finish()
                }?.reason == .compoundWithoutCNAME)
            #expect(
                rtpError {
                    var builder = RTCPCompoundBuilder(into: buffer)
                    try builder.addReceiverReport(ssrc: 1, reportBlocks: Array(repeating: SampleCompound.blocks[0], count: 32))
                }?.reason == .valueOutOfRange(field: .itemCount, value: 32))
        }
        var small = [UInt8](repeating: 0, count: 30)
        small.withUnsafeMutableBytes { buffer in
            #expect(
                rtpError {
                    var builder = RTCPCompoundBuilder(into: buffer)
                    try builder.addReceiverReport(ssrc: 1, reportBlocks: SampleCompound.blocks)
                }?.reason == .bufferTooSmall(needed: 32, available: 30))
        }
    }

    @Test("AVPF feedback and unknown types are skipped as other; padding on the last packet is accepted")
    func otherTypesAndPadding() throws {
        let bytes = hexBytes(
            "80c90001 00000009"  // RR, no blocks
                + "81cd0002 00000009 0000000a"  // RTPFB generic NACK header (FMT 1), 205
                + "84ce0002 00000009 0000000a"  // PSFB FMT 4 (FIR), 206
                + "a0d20002 01020304 00000004")  // unknown type 210, padded (4 bytes)
        let summary: [String] = try withCompound(bytes) { packet in
            switch packet {
            case .receiverReport: "RR"
            case .other(let other): "\(other.packetType)/\(other.count)/\(other.body.count)"
            default: "?"
            }
        }
        #expect(summary == ["RR", "205/1/8", "206/4/8", "210/0/4"])
    }

    @Test(
        "Malformed compounds throw typed errors with offsets",
        arguments: [
            ("80c9000100000009 81", RTPError(.truncated(needed: 4, available: 1), at: 8)),
            ("81c9000200000009", RTPError(.truncated(needed: 12, available: 8), at: 0)),
            ("41c9000100000009", RTPError(.unsupportedVersion(1), at: 0)),
            ("81c9000100000009", RTPError(.truncated(needed: 32, available: 8), at: 0)),
            ("a0c9000100000000", RTPError(.invalidPadding(count: 0, available: 4), at: 7)),
            ("a0c9000100000000 80c9000100000000", RTPError(.paddingBeforeLastPacket, at: 0)),
            ("81ca0002 00000001 01056162", RTPError(.truncated(needed: 7, available: 4), at: 8)),
            ("81ca0002 00000001 01026162", RTPError(.truncated(needed: 1, available: 0), at: 12)),
            ("82cb0001 00000001", RTPError(.truncated(needed: 8, available: 4), at: 4)),
            ("80cb0001 05616263", RTPError(.truncated(needed: 6, available: 4), at: 4)),
            ("80cc0001 00000001", RTPError(.truncated(needed: 8, available: 4), at: 4)),
            ("80cf0003 00000001 07000001 00000000", RTPError(.invalidLength(1), at: 10)),
            ("80cf0002 00000001 04000002", RTPError(.truncated(needed: 12, available: 4), at: 8)),
        ])
    func malformed(hex: String, expected: RTPError) {
        let bytes = hexBytes(hex)
        let error = bytes.withUnsafeBytes { raw in rtpError { _ = try RTCPCompoundPacket(raw) } }
        #expect(error == expected, "\(hex)")
    }

    @Test("RFC 7714 §17's plaintext SR declares 14 words but carries 13: rejected, and its SR read once repaired")
    func rfc7714SenderReport() throws {
        let lines = try Fixtures.vectorLines("srtp/rfc7714-17-srtcp-aead-aes-gcm.txt")
        let hex = try #require(lines.first { $0.hasPrefix("plaintext_rtcp_packet:") }?.split(separator: " ").last)
        let bytes = hexBytes(String(hex))
        #expect(bytes.count == 52)
        let error = bytes.withUnsafeBytes { raw in rtpError { _ = try RTCPCompoundPacket(raw) } }
        #expect(error == RTPError(.truncated(needed: 56, available: 52), at: 0))
        var repaired = bytes
        repaired[3] = 0x0C  // length 12: 13 words
        let reports: [RTCPSenderInfo] = try withCompound(repaired) { packet in
            guard case .senderReport(let report) = packet else { throw RTPError(.compoundMustStartWithReport, at: 0) }
            #expect(report.ssrc == 0x4D61_7273)  // "Mars"
            #expect(Array(report.reportBlocks).map(\.ssrc) == [0x4C75_6E61])  // "Luna"
            return report.senderInfo
        }
        #expect(
            reports == [
                RTCPSenderInfo(
                    ntpTimestamp: NTPTimestamp(seconds: 0x4E54_5031, fraction: 0x4E54_5032), rtpTimestamp: RTPTimestamp(0x5254_5020),
                    packetCount: 0x42A, octetCount: 0xE930)
            ])
    }

    @Test("NTP time from and to Unix time")
    func ntpConversion() {
        // 2024-01-01T00:00:00.5Z = 1704067200.5 s Unix = 3913056000.5 s NTP.
        let ntp = NTPTimestamp(unixTime: MediaTime(seconds: 1_704_067_200.5))
        #expect(ntp.seconds == 3_913_056_000)
        #expect(ntp.fraction == 0x8000_0000)
        #expect(ntp.unixTime == MediaTime(seconds: 1_704_067_200.5))
        #expect(ntp.middle32 == (3_913_056_000 & 0xFFFF) << 16 | 0x8000)
        #expect(NTPTimestamp(unixTime: .zero).seconds == 2_208_988_800)
        // Era 1: 2036-02-07T06:28:16Z is NTP second 0 again.
        let era1 = NTPTimestamp(unixTime: MediaTime(seconds: 2_085_978_496 + 1))
        #expect(era1.seconds == 1)
        #expect(era1.unixTime == MediaTime(seconds: 2_085_978_497))
        // Millisecond values survive the round trip within a nanosecond.
        let time = MediaTime(nanoseconds: 1_700_000_000_123_456_789)
        #expect(abs(NTPTimestamp(unixTime: time).unixTime.nanoseconds - time.nanoseconds) <= 1)
    }

    @Test("RTT from LSR/DLSR (RFC 3550 §6.4.1 example) and from XR DLRR")
    func roundTripTime() throws {
        // RFC 3550 §6.4.1 figure: A = 0xb710:8000 (46864.500 s), LSR = 0xb705:2000 (46853.125 s),
        // DLSR = 0x0005:4000 (5.250 s): RTT = 6.125 s.
        let arrival = NTPTimestamp(rawValue: UInt64(0xB710_8000) << 16)
        let block = RTCPReportBlock(
            ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequence: 0, jitter: 0,
            lastSenderReport: 0xB705_2000, delaySinceLastSenderReport: 0x0005_4000)
        #expect(block.roundTripTime(arrival: arrival) == MediaTime(seconds: 6.125))
        let item = RTCPDLRRItem(ssrc: 1, lastReceiverReport: 0xB705_2000, delaySinceLastReceiverReport: 0x0005_4000)
        #expect(item.roundTripTime(arrival: arrival) == MediaTime(seconds: 6.125))
        var noReport = block
        noReport.lastSenderReport = 0
        #expect(noReport.roundTripTime(arrival: arrival) == nil)
        var negative = block
        negative.delaySinceLastSenderReport = 0x000C_0000
        #expect(negative.roundTripTime(arrival: arrival) == nil)
        // A DLSR counted in whole milliseconds (libre) can exceed the elapsed time by up to
        // 1 ms on a loopback path: a zero round trip, not none; 3 ms over is still none.
        var coarse = block
        coarse.delaySinceLastSenderReport = 0x000B_6000 + 66
        #expect(coarse.roundTripTime(arrival: arrival) == MediaTime(nanoseconds: 0))
        coarse.delaySinceLastSenderReport = 0x000B_6000 + 197
        #expect(coarse.roundTripTime(arrival: arrival) == nil)
        #expect(CompactNTP.units(of: MediaTime(seconds: 5.25)) == 0x0005_4000)
    }

    @Test("Transmission interval (RFC 3550 A.7)")
    func transmissionInterval() {
        // Two members, one sender (us), 64 kbit/s session: RTCP bandwidth 400 B/s; senders ≤ 25 %? 1 ≤ 0.5: no.
        let pair = RTCPTransmissionInterval(members: 2, senders: 1, rtcpBandwidth: 400, weSent: true, averagePacketSize: 100, initial: false)
        #expect(pair.deterministicSeconds == 5)  // 100 × 2 / 400 = 0.5 s < 5 s minimum
        #expect(abs(pair.seconds(random: 0) - 2.5 / 1.218_281_828_459_045) < 1e-9)
        #expect(abs(pair.seconds(random: 1) - 7.5 / 1.218_281_828_459_045) < 1e-9)
        var initial = pair
        initial.initial = true
        #expect(initial.deterministicSeconds == 2.5)
        // A large conference: 1000 members, 10 senders; receivers share 75 % of the bandwidth.
        let receiver = RTCPTransmissionInterval(members: 1000, senders: 10, rtcpBandwidth: 400, weSent: false, averagePacketSize: 120, initial: false)
        #expect(abs(receiver.deterministicSeconds - 120 * 990 / 300) < 1e-9)
        let sender = RTCPTransmissionInterval(members: 1000, senders: 10, rtcpBandwidth: 400, weSent: true, averagePacketSize: 120, initial: false)
        #expect(sender.deterministicSeconds == 12)  // 120 × 10 / 100
        #expect(RTCPTransmissionInterval.reducedMinimum(sessionBandwidthKilobits: 72) == 5)
        #expect(RTCPTransmissionInterval.reducedMinimum(sessionBandwidthKilobits: 360) == 1)
        var reduced = pair
        reduced.minimumInterval = RTCPTransmissionInterval.reducedMinimum(sessionBandwidthKilobits: 720)
        #expect(reduced.deterministicSeconds == 0.5)
    }
}
