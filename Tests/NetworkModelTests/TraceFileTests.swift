import Foundation
import Testing
import TestSupport

@testable import NetworkModel

@Suite struct TraceCSVTests {
    @Test func roundTripIsExact() throws {
        for scenario in [NetworkScenario.heavyJitter, .dtx, .spikes] {
            let trace = scenario.generate(seed: 9).trace
            #expect(try TraceCSV.read(TraceCSV.write(trace)) == trace)
        }
    }

    @Test func writesTheAgreedFormat() {
        let trace = NetworkTrace(packets: [
            TracePacket(sequenceNumber: 70000, rtpTimestamp: 5_000_000_000, sendMilliseconds: 0, arrivalMilliseconds: 41.25, payloadBytes: 160),
            TracePacket(sequenceNumber: 70001, rtpTimestamp: 5_000_000_160, sendMilliseconds: 20, arrivalMilliseconds: nil, payloadBytes: 160),
        ])
        #expect(TraceCSV.write(trace) == "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n70000,5000000000,0.000,41.250,160\n70001,5000000160,20.000,,160\n")
        #expect(TraceCSV.formatMilliseconds(-0.5) == "-0.500")
    }

    @Test func acceptsCRLFAndBlankLines() throws {
        let text = "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\r\n1,160,20,61.5,160\r\n\r\n"
        let trace = try TraceCSV.read(text)
        #expect(trace.packets == [TracePacket(sequenceNumber: 1, rtpTimestamp: 160, sendMilliseconds: 20, arrivalMilliseconds: 61.5, payloadBytes: 160)])
    }

    @Test(arguments: [
        ("", TraceCSVError.empty),
        ("seq,ts\n", .unexpectedHeader(found: "seq,ts")),
        ("\nseq,rtp_ts,send_ms,arrival_ms,payload_bytes\n", .unexpectedHeader(found: "seq,rtp_ts,send_ms,arrival_ms,payload_bytes")),
        ("seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,3,4\n", .wrongFieldCount(line: 2, found: 4)),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,3,4,5\n-1,2,3,4,5\n",
            .invalidField(line: 3, column: 1, name: "seq", text: "-1", expected: "an unsigned integer")
        ),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,x,3,4,5\n",
            .invalidField(line: 2, column: 2, name: "rtp_ts", text: "x", expected: "an unsigned integer")
        ),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,,4,5\n",
            .invalidField(line: 2, column: 3, name: "send_ms", text: "", expected: "a decimal number of milliseconds")
        ),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,3,nan,5\n",
            .invalidField(line: 2, column: 4, name: "arrival_ms", text: "nan", expected: "a decimal number of milliseconds")
        ),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,3,1e3,5\n",
            .invalidField(line: 2, column: 4, name: "arrival_ms", text: "1e3", expected: "a decimal number of milliseconds")
        ),
        (
            "seq,rtp_ts,send_ms,arrival_ms,payload_bytes\n1,2,3,4,99999999999\n",
            .invalidField(line: 2, column: 5, name: "payload_bytes", text: "99999999999", expected: "an unsigned integer up to 2147483647")
        ),
    ])
    func everyErrorNamesLineAndColumn(text: String, expected: TraceCSVError) {
        #expect(throws: expected) { try TraceCSV.read(text) }
    }

    @Test func errorDescriptionsNameThePlace() {
        let error = TraceCSVError.invalidField(line: 7, column: 4, name: "arrival_ms", text: "x", expected: "a decimal number of milliseconds")
        #expect(error.description == "trace CSV line 7, column 4 (arrival_ms): \"x\" is not a decimal number of milliseconds")
    }
}

@Suite struct RTPDumpTests {
    func load(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: Fixtures.trace(name)))
    }

    @Test(arguments: ["stereo_pcmu_jitter.rtp", "stereo_pcmu_vad_jitter.rtp"])
    func realTracesParseWithPlausibleValues(name: String) throws {
        let bytes = try load(name)
        let packets = try RTPDump.packets(from: bytes)
        // The `_vad_` file also holds 198 empty records (silence), which are skipped.
        #expect(packets.count == (name.contains("vad") ? 1811 : 2009))
        #expect(Set(packets.map(\.ssrc)).count == 1)
        let trace = try RTPDump.trace(from: bytes, clockRate: 8000)
        let arrived = trace.packets.filter { $0.arrivalMilliseconds != nil }
        #expect(arrived.count == packets.count)
        let delays = arrived.map { $0.arrivalMilliseconds! - $0.sendMilliseconds }.sorted()
        #expect(delays.first == 0)
        let p50 = delays[delays.count / 2], p95 = delays[delays.count * 95 / 100], maximum = delays.last!
        // The README's figures: p50 65 ms, p95 99 ms, max 134 ms of relative delay.
        #expect(p50 > 40 && p50 < 90, "p50 \(p50)")
        #expect(p95 > 80 && p95 < 120, "p95 \(p95)")
        #expect(maximum > 110 && maximum < 160, "max \(maximum)")
        let duration = trace.packets.last!.sendMilliseconds - trace.packets.first!.sendMilliseconds
        #expect(duration > 35_000 && duration < 45_000)
        let order = trace.arrivalOrder.map(\.sequenceNumber)
        let reorderings = zip(order, order.dropFirst()).filter { $0 > $1 }.count
        #expect(reorderings > 100)
    }

    @Test func rejectsDamagedFiles() throws {
        let bytes = try load("stereo_pcmu_jitter.rtp")
        #expect(throws: RTPDumpError.missingPreamble) { try RTPDump.packets(from: Array("#!rtpplay2.0 x\n".utf8)) }
        #expect(throws: RTPDumpError.truncatedFileHeader) { try RTPDump.packets(from: Array(bytes[0..<20])) }
        let firstRecord = try #require(bytes.firstIndex(of: 0x0A)) + 1 + 16
        #expect(throws: RTPDumpError.truncatedRecord(offset: firstRecord)) {
            try RTPDump.packets(from: Array(bytes[0..<(firstRecord + 100)]))
        }
        var shortLength = bytes
        shortLength[firstRecord] = 0
        shortLength[firstRecord + 1] = 4
        #expect(throws: RTPDumpError.invalidRecordLength(offset: firstRecord, length: 4)) { try RTPDump.packets(from: shortLength) }
        var badVersion = bytes
        badVersion[firstRecord + 8] = 0x40
        #expect(throws: RTPDumpError.malformedRTP(offset: firstRecord + 8, reason: "version 1, not 2")) {
            try RTPDump.packets(from: badVersion)
        }
        #expect(throws: RTPDumpError.noPackets) { try RTPDump.trace(from: Array(bytes[0..<firstRecord]), clockRate: 8000) }
    }
}
