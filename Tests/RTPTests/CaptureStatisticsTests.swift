import Foundation
import Testing
import TestSupport
import RTP

/// Reception statistics and the DTMF receiver fed with real captures, against tshark.
@Suite("Statistics and DTMF on real captures")
struct CaptureStatisticsTests {
    /// The RTP packets of one stream in capture order: arrival, sequence number, timestamp.
    static func stream(_ name: String, ssrc: String) throws -> [(arrival: MediaTime, sequence: UInt16, timestamp: UInt32)] {
        let rows = try TShark.fields(
            try Fixtures.capture(name), options: ["--enable-heuristic", "rtp_udp", "-Y", "rtp.version == 2 && !icmp && rtp.ssrc == \(ssrc)"],
            fields: ["frame.time_epoch", "rtp.seq", "rtp.timestamp"])
        return try rows.map { row in
            (MediaTime(seconds: try #require(Double(row[0]))), try #require(UInt16(row[1])), try #require(UInt32(row[2])))
        }
    }

    /// Jitter (A.8) in ms against `tshark -z rtp,streams` (CATALOG.md): tshark's mean is the mean
    /// of the running estimate over the packets, its max the largest value it took.
    @Test(
        "Interarrival jitter and loss match tshark",
        arguments: [
            ("sipp_g711a.pcap", "0xDEE0EE8F", 236, 0, 0.350, 0.829),
            ("ws_MagicJack_short_call.pcap", "0x2A173650", 642, 0, 12.234, 12.838),
            ("ws_MagicJack_short_call.pcap", "0x31BE1E0E", 626, 0, 0.229, 0.832),
            ("ws_SIP_DTMF2.pcap", "0x9A7B5382", 665, 2, nil, nil),
        ] as [(String, String, Int, Int, Double?, Double?)])
    func jitterAndLoss(name: String, ssrc: String, packets: Int, lost: Int, meanJitter: Double?, maxJitter: Double?) throws {
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        var jitters: [Double] = []
        let stream = try Self.stream(name, ssrc: ssrc)
        #expect(stream.count == packets)
        for packet in stream {
            statistics.record(sequence: SequenceNumber(packet.sequence), timestamp: RTPTimestamp(packet.timestamp), arrival: packet.arrival)
            jitters.append(statistics.jitterMilliseconds)
        }
        #expect(statistics.received == Int64(packets))
        #expect(statistics.cumulativeLost == Int64(lost))
        #expect(statistics.duplicates == 0)
        if let meanJitter, let maxJitter {
            // tshark leaves the first packet (no transit difference yet) out of its mean.
            let mean = jitters.dropFirst().reduce(0, +) / Double(jitters.count - 1)
            #expect(abs(mean - meanJitter) < 0.0015, "mean jitter \(mean)")
            #expect(abs((jitters.max() ?? 0) - maxJitter) < 0.0015, "max jitter \(jitters.max() ?? 0)")
        }
    }

    @Test("SIPp's end packet repeated with one sequence number: one press, two duplicates")
    func sippDuplicatedEnd() throws {
        let rows = try TShark.fields(
            try Fixtures.capture("sipp_dtmf_2833_1.pcap"), options: ["--enable-heuristic", "rtp_udp", "-Y", "rtp.version == 2"],
            fields: ["udp.payload", "frame.time_epoch"])
        var statistics = ReceptionStatistics(clockRate: 8000, minimumSequential: 1)
        var receiver = DTMFReceiver()
        var presses: [DTMFKeyPress] = []
        for row in rows {
            try withPacket(hexBytes(row[0])) { packet in
                statistics.record(packet, arrival: MediaTime(seconds: try #require(Double(row[1]))))
                presses += receiver.receive(try DTMFEventPayload(parsing: packet.payload), timestamp: packet.timestamp)
            }
        }
        #expect(presses == [DTMFKeyPress(event: 1, timestamp: RTPTimestamp(13280), duration: 2240, volume: 10, endReceived: true)])
        #expect(receiver.flush() == nil)
        #expect(statistics.received == 10 && statistics.expected == 8 && statistics.duplicates == 2)
        #expect(statistics.cumulativeLost == -2)  // as tshark's "Lost −2"
    }

    @Test("Every telephone event in the captures is reported once, with tshark's final duration")
    func dtmfEventsInCaptures() throws {
        var total = 0
        for capture in try Fixtures.allCaptures() {
            let rows = try TShark.fields(
                capture, options: ["--enable-heuristic", "rtp_udp", "-Y", "rtpevent && !icmp"],
                fields: ["rtp.ssrc", "rtp.timestamp", "rtpevent.event_id", "rtpevent.end_of_event", "rtpevent.volume", "rtpevent.duration"])
            // Streams whose "events" change code within one timestamp are not telephone events
            // (ndpi_rtp.pcapng has encrypted payloads under PT 101): leave them out.
            var codes: [String: Set<String>] = [:]
            for row in rows { codes[row[0] + "/" + row[1], default: []].insert(row[2]) }
            let garbled = Set(codes.filter { $0.value.count > 1 }.keys.map { String($0.split(separator: "/")[0]) })
            var receivers: [String: DTMFReceiver] = [:]
            var ours: [String] = []
            var expected: [String: (event: String, duration: Int)] = [:]
            for row in rows where !garbled.contains(row[0]) {
                guard let timestamp = UInt32(row[1]), let event = UInt8(row[2]), let volume = UInt8(row[4]), let duration = UInt16(row[5]) else {
                    Issue.record("unreadable row \(row)")
                    continue
                }
                let key = row[0] + "/" + row[1]
                expected[key] = (row[2], max(expected[key]?.duration ?? 0, Int(duration)))
                let payload = DTMFEventPayload(event: event, isEnd: row[3] == "1", volume: volume, duration: duration)
                for press in receivers[row[0], default: DTMFReceiver()].receive(payload, timestamp: RTPTimestamp(timestamp)) {
                    ours.append("\(row[0])/\(press.timestamp.rawValue) \(press.event) \(press.duration)")
                }
            }
            for ssrc in receivers.keys {
                if let press = receivers[ssrc]?.flush() { ours.append("\(ssrc)/\(press.timestamp.rawValue) \(press.event) \(press.duration)") }
            }
            let theirs = expected.map { "\($0.key) \($0.value.event) \($0.value.duration)" }
            #expect(ours.sorted() == theirs.sorted(), "\(capture.lastPathComponent)")
            total += theirs.count
        }
        #expect(total >= 5)
    }
}
