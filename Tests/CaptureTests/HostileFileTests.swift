import Capture
import Foundation
import Testing
import TestSupport

/// Damaged, foreign and hostile files: each gives a typed error that says how far reading got.
@Suite("Hostile capture files")
struct HostileFileTests {
    /// How reading a whole file ended.
    struct Outcome: Equatable {
        var framesRead: Int
        var error: CaptureError?
    }

    static func readAll(_ path: String) -> Outcome {
        do {
            var reader = try CaptureReader(path: path)
            var frames = 0
            do {
                try reader.forEachFrame { frame in
                    frames += 1
                    _ = frame.decodeUDP()
                }
            } catch {
                #expect(reader.framesRead == frames)
                return Outcome(framesRead: frames, error: error)
            }
            return Outcome(framesRead: frames, error: nil)
        } catch {
            return Outcome(framesRead: 0, error: error)
        }
    }

    static func bytes(ofCapture name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: try Fixtures.capture(name)))
    }

    /// The offsets at which each record of a little-endian classic pcap file ends.
    static func classicRecordEnds(_ file: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var offset = 24
        while offset + 16 <= file.count {
            let capturedLength = file[(offset + 8)..<(offset + 12)].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 16 + capturedLength
            ends.append(offset)
        }
        return ends
    }

    /// The end offsets of the blocks of a little-endian pcapng file, and whether each holds a packet.
    static func pcapngBlocks(_ file: [UInt8]) -> [(end: Int, isPacket: Bool)] {
        var blocks: [(end: Int, isPacket: Bool)] = []
        var offset = 0
        func word(_ at: Int) -> Int { file[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        while offset + 8 <= file.count {
            let type = word(offset)
            offset += word(offset + 4)
            blocks.append((offset, [2, 3, 6].contains(type)))
        }
        return blocks
    }

    @Test func classicPcapCutAtEveryOffset() throws {
        let file = try Self.bytes(ofCapture: "sipp_dtmf_2833_1.pcap")
        let ends = Self.classicRecordEnds(file)
        #expect(ends.count == 10)
        #expect(ends.last == file.count)
        let scratch = try ScratchDirectory()
        for cut in 0..<file.count {
            let path = try scratch.write(file.prefix(cut), to: "cut.pcap")
            let outcome = Self.readAll(path)
            let complete = ends.filter { $0 <= cut }.count
            if cut < 24 {
                guard case .notACaptureFile(path, _) = outcome.error else {
                    Issue.record("cut at \(cut): \(outcome)")
                    continue
                }
            } else if cut == 24 || ends.contains(cut) {
                #expect(outcome == Outcome(framesRead: complete, error: nil), "cut at \(cut)")
            } else {
                guard case .truncatedFile(path, complete, _) = outcome.error else {
                    Issue.record("cut at \(cut): \(outcome)")
                    continue
                }
                #expect(outcome.framesRead == complete)
            }
        }
    }

    @Test func pcapngCutAtManyOffsets() throws {
        let file = try Self.bytes(ofCapture: "ndpi_rtp.pcapng")
        let blocks = Self.pcapngBlocks(file)
        #expect(blocks.last?.end == file.count)
        #expect(blocks.filter(\.isPacket).count == 112)
        // libpcap reads the section header and the first interface description when it opens
        // the file, the other blocks as it goes.
        let openingEnd = blocks[1].end
        let boundaries = Set(blocks.map(\.end))
        let cuts =
            Array(0..<200) + Array(stride(from: 200, to: file.count, by: 499))
            + blocks.flatMap { [$0.end - 1, $0.end, $0.end + 1] }
        let scratch = try ScratchDirectory()
        for cut in cuts where cut <= file.count {
            let path = try scratch.write(file.prefix(cut), to: "cut.pcapng")
            let outcome = Self.readAll(path)
            let complete = blocks.filter { $0.isPacket && $0.end <= cut }.count
            switch outcome.error {
            case nil:
                #expect(boundaries.contains(cut) && cut >= openingEnd, "cut at \(cut) read cleanly")
                #expect(outcome.framesRead == complete, "cut at \(cut)")
            case .notACaptureFile?:
                #expect(cut < openingEnd, "cut at \(cut) after the opening blocks")
            case .truncatedFile(path, let framesRead, _)?:
                #expect(framesRead == complete, "cut at \(cut)")
                #expect(!boundaries.contains(cut) && cut > openingEnd, "cut at \(cut)")
            default:
                Issue.record("cut at \(cut): \(outcome)")
            }
        }
    }

    @Test func truncationIsReportedWithWhatWasFoundBefore() throws {
        let file = try Self.bytes(ofCapture: "sipp_g711a.pcap")
        let ends = Self.classicRecordEnds(file)
        let scratch = try ScratchDirectory()
        let path = try scratch.write(file.prefix(ends[99] + 30), to: "half.pcap")
        var reader = try CaptureReader(path: path)
        var statistics = CaptureStatistics()
        var datagrams = 0
        #expect(throws: CaptureError.self) {
            try reader.forEachUDPDatagram(counting: &statistics) { _ in datagrams += 1 }
        }
        #expect(statistics.frames == 100)
        #expect(statistics.udpDatagrams == 100)
        #expect(datagrams == 100)
        do {
            _ = try reader.nextFrame()
        } catch {
            #expect(error.description.hasPrefix("capture file \(path) is truncated: it ends inside frame 101, after 100 complete frames (truncated dump file"))
        }
    }

    @Test func oversizedRecordLengthIsCorrupt() throws {
        var file = try Self.bytes(ofCapture: "sipp_dtmf_2833_1.pcap")
        let thirdRecord = Self.classicRecordEnds(file)[1]
        file.replaceSubrange((thirdRecord + 8)..<(thirdRecord + 12), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let scratch = try ScratchDirectory()
        let path = try scratch.write(file, to: "corrupt.pcap")
        let outcome = Self.readAll(path)
        guard case .corruptFile(path, 2, let reason)? = outcome.error else {
            Issue.record("\(outcome)")
            return
        }
        #expect(reason.contains("invalid packet capture length"))
    }

    @Test func foreignFilesAreNotCaptures() throws {
        let scratch = try ScratchDirectory()
        let text = try scratch.write(Array("v=0\r\no=- 1 1 IN IP4 192.0.2.1\r\n".utf8), to: "offer.sdp")
        let empty = try scratch.write([], to: "empty.pcap")
        for path in [text, empty] {
            guard case .notACaptureFile(path, let reason)? = Self.readAll(path).error else {
                Issue.record("\(path) opened")
                continue
            }
            #expect(!reason.isEmpty)
        }
        #expect(Self.readAll(scratch.path("missing.pcap")).error == .fileNotFound(path: scratch.path("missing.pcap")))
        #expect(Self.readAll(scratch.url.path).error == .cannotOpen(path: scratch.url.path, reason: "it is a directory"))
        let missing = CaptureError.fileNotFound(path: "/x/call.pcap")
        #expect(missing.description == "capture file /x/call.pcap not found")
        #expect(missing.path == "/x/call.pcap")
    }

    @Test func unknownLinkTypeOpensButCannotBeDecoded() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("user0.pcap")
        var writer = try PcapWriter(path: path, linkType: LinkType(rawValue: 147))
        try TestFrames.ethernetIPv4().withUnsafeBytes { writer.write($0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 0)) }
        try writer.finish()

        var reader = try CaptureReader(path: path)
        #expect(reader.linkType.rawValue == 147)
        var statistics = CaptureStatistics()
        #expect(throws: CaptureError.unsupportedLinkType(path: path, linkType: LinkType(rawValue: 147))) {
            try reader.forEachUDPDatagram(counting: &statistics) { _ in }
        }
        #expect(statistics.frames == 0)
        let frame = try #require(try reader.nextFrame())
        guard case .skipped(.unsupportedLinkType) = frame.decodeUDP() else {
            Issue.record("a frame of an unknown link type was decoded")
            return
        }
    }

    /// Random files, some behind a valid pcap or pcapng header: every one ends in a typed error
    /// or a clean end, never a trap.
    @Test func randomBytesNeverTrap() throws {
        var random = SplitMix64(seed: 0x5EED)
        let scratch = try ScratchDirectory()
        let headers: [[UInt8]] = [
            [],
            Array(try Self.bytes(ofCapture: "sipp_dtmf_2833_1.pcap").prefix(24)),
            Array(try Self.bytes(ofCapture: "ndpi_rtp.pcapng").prefix(600)),
        ]
        for index in 0..<300 {
            let header = headers[index % headers.count]
            let body = (0..<Int(random.next() % 2048)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let path = try scratch.write(header + body, to: "random\(index).pcap")
            let outcome = Self.readAll(path)
            if header.isEmpty, body.count >= 4 {
                guard case .notACaptureFile? = outcome.error else {
                    Issue.record("random file \(index) opened: \(outcome)")
                    continue
                }
            }
        }
    }
}
